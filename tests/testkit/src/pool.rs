//! The one worker pool of the kit and the tests: compilations and builds
//! spread over the machine's cores.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Calls `f(worker, item)` for every item of `items`, on as many threads as
/// the machine has cores (no more than there are items), each thread taking
/// the next item not yet taken; returns the results in the items' order.
/// `worker`, from 0 to the number of threads less one, tells the threads
/// apart (for a scratch file of each thread's own). A panic in `f` is
/// resumed on the caller's thread.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(items.len());
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                let (next, f) = (&next, &f);
                scope.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            break out;
                        };
                        out.push((i, f(worker, item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    results.sort_by_key(|&(i, _)| i);
    results.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::map;

    #[test]
    fn every_item_once_in_order() {
        let items: Vec<u32> = (0..1000).collect();
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let out = map(&items, |worker, &i| {
            assert!(worker < threads);
            i * 2
        });
        assert_eq!(out, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        assert!(map(&[] as &[u32], |_, &i| i).is_empty());
    }

    #[test]
    #[should_panic(expected = "item 7")]
    fn a_panic_reaches_the_caller() {
        let items: Vec<u32> = (0..10).collect();
        map(&items, |_, &i| assert!(i != 7, "item {i}"));
    }
}
