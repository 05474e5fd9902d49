//! Single objects on the C heap: the providers, event sets and builders that
//! C callers hold by pointer. `malloc` failure is ENOMEM.

use core::ffi::c_int;
use core::mem::{align_of, size_of};
use core::ptr::NonNull;

/// Moves `value` into a new `malloc`ed block. ENOMEM if there is no memory.
pub fn alloc<T>(value: T) -> Result<NonNull<T>, c_int> {
    const { assert!(align_of::<T>() <= 16 && size_of::<T>() > 0) };
    // SAFETY: malloc has no preconditions; the result is NULL or a block of
    // size_of::<T>() bytes aligned for any type of alignment <= 16.
    let block = unsafe { libc::malloc(size_of::<T>()) };
    let ptr = NonNull::new(block.cast::<T>()).ok_or(libc::ENOMEM)?;
    // SAFETY: `ptr` is a fresh, suitably aligned block of the right size.
    unsafe { ptr.as_ptr().write(value) };
    Ok(ptr)
}

/// Moves the value `make` returns into a new `malloc`ed block that has
/// `tail` more bytes after it, whose address `make` receives (for storage
/// the value uses, freed with it by [`free`]). ENOMEM if there is no memory.
pub fn alloc_with_tail<T>(
    tail: usize,
    make: impl FnOnce(NonNull<u8>) -> T,
) -> Result<NonNull<T>, c_int> {
    const { assert!(align_of::<T>() <= 16 && size_of::<T>() > 0) };
    let bytes = size_of::<T>().checked_add(tail).ok_or(libc::ENOMEM)?;
    // SAFETY: malloc has no preconditions; the result is NULL or a block of
    // `bytes` bytes aligned for any type of alignment <= 16.
    let block = unsafe { libc::malloc(bytes) };
    let ptr = NonNull::new(block.cast::<T>()).ok_or(libc::ENOMEM)?;
    // SAFETY: the tail starts within (or just past) the block.
    let tail_at = unsafe { ptr.cast::<u8>().add(size_of::<T>()) };
    // SAFETY: `ptr` is a fresh, suitably aligned block of the right size.
    unsafe { ptr.as_ptr().write(make(tail_at)) };
    Ok(ptr)
}

/// Drops the object and frees its block.
///
/// # Safety
/// `ptr` must come from [`alloc`] or [`alloc_with_tail`] and not be used
/// (or freed) again.
pub unsafe fn free<T>(ptr: NonNull<T>) {
    // SAFETY: a live object from alloc (the caller's guarantee), dropped once.
    unsafe { ptr.as_ptr().drop_in_place() };
    // SAFETY: the block came from malloc and is freed once.
    unsafe { libc::free(ptr.as_ptr().cast()) };
}
