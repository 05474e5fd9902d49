/*
sal.h (windows-compat): the SAL annotations (Microsoft's source-code
annotation language) that Windows code puts on parameters, return values,
functions and struct fields, e.g.

    HRESULT CopyName(_Out_writes_z_(cchMax) PWSTR name, _In_ SIZE_T cchMax,
                     _In_opt_z_ PCWSTR fallback);

They matter only to Microsoft's code analysis; compilers ignore them, and here
each one expands to nothing (those that take arguments accept and drop any).
windows.h of this directory includes this header, as the Windows headers do.
The names are the ones of Microsoft's SAL documentation ("Annotating function
parameters and return values", "... function behavior", "... structs and
classes", "... locking behavior"); each is defined only if it is not defined
already. The older SAL 1 names with two leading underscores (__in, __out, ...)
are not defined: the C++ standard library uses some of them as identifiers.
*/
#ifndef _included_windows_compat_sal_h
#define _included_windows_compat_sal_h 1

/* Pointer parameters */
#ifndef _In_
#define _In_
#endif
#ifndef _Out_
#define _Out_
#endif
#ifndef _Inout_
#define _Inout_
#endif
#ifndef _In_z_
#define _In_z_
#endif
#ifndef _Inout_z_
#define _Inout_z_
#endif
#ifndef _In_reads_
#define _In_reads_(...)
#endif
#ifndef _In_reads_bytes_
#define _In_reads_bytes_(...)
#endif
#ifndef _In_reads_z_
#define _In_reads_z_(...)
#endif
#ifndef _In_reads_or_z_
#define _In_reads_or_z_(...)
#endif
#ifndef _Out_writes_
#define _Out_writes_(...)
#endif
#ifndef _Out_writes_bytes_
#define _Out_writes_bytes_(...)
#endif
#ifndef _Out_writes_z_
#define _Out_writes_z_(...)
#endif
#ifndef _Inout_updates_
#define _Inout_updates_(...)
#endif
#ifndef _Inout_updates_bytes_
#define _Inout_updates_bytes_(...)
#endif
#ifndef _Inout_updates_z_
#define _Inout_updates_z_(...)
#endif
#ifndef _Out_writes_to_
#define _Out_writes_to_(...)
#endif
#ifndef _Out_writes_bytes_to_
#define _Out_writes_bytes_to_(...)
#endif
#ifndef _Out_writes_all_
#define _Out_writes_all_(...)
#endif
#ifndef _Out_writes_bytes_all_
#define _Out_writes_bytes_all_(...)
#endif
#ifndef _Inout_updates_to_
#define _Inout_updates_to_(...)
#endif
#ifndef _Inout_updates_bytes_to_
#define _Inout_updates_bytes_to_(...)
#endif
#ifndef _Inout_updates_all_
#define _Inout_updates_all_(...)
#endif
#ifndef _Inout_updates_bytes_all_
#define _Inout_updates_bytes_all_(...)
#endif
#ifndef _In_reads_to_ptr_
#define _In_reads_to_ptr_(...)
#endif
#ifndef _In_reads_to_ptr_z_
#define _In_reads_to_ptr_z_(...)
#endif
#ifndef _Out_writes_to_ptr_
#define _Out_writes_to_ptr_(...)
#endif
#ifndef _Out_writes_to_ptr_z_
#define _Out_writes_to_ptr_z_(...)
#endif

/* Optional pointer parameters (may be NULL) */
#ifndef _In_opt_
#define _In_opt_
#endif
#ifndef _Out_opt_
#define _Out_opt_
#endif
#ifndef _Inout_opt_
#define _Inout_opt_
#endif
#ifndef _In_opt_z_
#define _In_opt_z_
#endif
#ifndef _Inout_opt_z_
#define _Inout_opt_z_
#endif
#ifndef _In_reads_opt_
#define _In_reads_opt_(...)
#endif
#ifndef _In_reads_bytes_opt_
#define _In_reads_bytes_opt_(...)
#endif
#ifndef _In_reads_opt_z_
#define _In_reads_opt_z_(...)
#endif
#ifndef _Out_writes_opt_
#define _Out_writes_opt_(...)
#endif
#ifndef _Out_writes_bytes_opt_
#define _Out_writes_bytes_opt_(...)
#endif
#ifndef _Out_writes_opt_z_
#define _Out_writes_opt_z_(...)
#endif
#ifndef _Inout_updates_opt_
#define _Inout_updates_opt_(...)
#endif
#ifndef _Inout_updates_bytes_opt_
#define _Inout_updates_bytes_opt_(...)
#endif
#ifndef _Inout_updates_opt_z_
#define _Inout_updates_opt_z_(...)
#endif
#ifndef _Out_writes_to_opt_
#define _Out_writes_to_opt_(...)
#endif
#ifndef _Out_writes_bytes_to_opt_
#define _Out_writes_bytes_to_opt_(...)
#endif
#ifndef _Out_writes_all_opt_
#define _Out_writes_all_opt_(...)
#endif
#ifndef _Out_writes_bytes_all_opt_
#define _Out_writes_bytes_all_opt_(...)
#endif
#ifndef _Inout_updates_to_opt_
#define _Inout_updates_to_opt_(...)
#endif
#ifndef _Inout_updates_bytes_to_opt_
#define _Inout_updates_bytes_to_opt_(...)
#endif
#ifndef _Inout_updates_all_opt_
#define _Inout_updates_all_opt_(...)
#endif
#ifndef _Inout_updates_bytes_all_opt_
#define _Inout_updates_bytes_all_opt_(...)
#endif
#ifndef _In_reads_to_ptr_opt_
#define _In_reads_to_ptr_opt_(...)
#endif
#ifndef _In_reads_to_ptr_opt_z_
#define _In_reads_to_ptr_opt_z_(...)
#endif
#ifndef _Out_writes_to_ptr_opt_
#define _Out_writes_to_ptr_opt_(...)
#endif
#ifndef _Out_writes_to_ptr_opt_z_
#define _Out_writes_to_ptr_opt_z_(...)
#endif

/* Output pointer and reference parameters */
#ifndef _Outptr_
#define _Outptr_
#endif
#ifndef _Outptr_opt_
#define _Outptr_opt_
#endif
#ifndef _Outptr_result_maybenull_
#define _Outptr_result_maybenull_
#endif
#ifndef _Outptr_opt_result_maybenull_
#define _Outptr_opt_result_maybenull_
#endif
#ifndef _Outptr_result_z_
#define _Outptr_result_z_
#endif
#ifndef _Outptr_opt_result_z_
#define _Outptr_opt_result_z_
#endif
#ifndef _Outptr_result_maybenull_z_
#define _Outptr_result_maybenull_z_
#endif
#ifndef _Outptr_opt_result_maybenull_z_
#define _Outptr_opt_result_maybenull_z_
#endif
#ifndef _COM_Outptr_
#define _COM_Outptr_
#endif
#ifndef _COM_Outptr_opt_
#define _COM_Outptr_opt_
#endif
#ifndef _COM_Outptr_result_maybenull_
#define _COM_Outptr_result_maybenull_
#endif
#ifndef _COM_Outptr_opt_result_maybenull_
#define _COM_Outptr_opt_result_maybenull_
#endif
#ifndef _Outptr_result_buffer_
#define _Outptr_result_buffer_(...)
#endif
#ifndef _Outptr_result_bytebuffer_
#define _Outptr_result_bytebuffer_(...)
#endif
#ifndef _Outptr_opt_result_buffer_
#define _Outptr_opt_result_buffer_(...)
#endif
#ifndef _Outptr_opt_result_bytebuffer_
#define _Outptr_opt_result_bytebuffer_(...)
#endif
#ifndef _Outptr_result_buffer_to_
#define _Outptr_result_buffer_to_(...)
#endif
#ifndef _Outptr_result_bytebuffer_to_
#define _Outptr_result_bytebuffer_to_(...)
#endif
#ifndef _Outptr_opt_result_buffer_to_
#define _Outptr_opt_result_buffer_to_(...)
#endif
#ifndef _Outptr_opt_result_bytebuffer_to_
#define _Outptr_opt_result_bytebuffer_to_(...)
#endif
#ifndef _Result_nullonfailure_
#define _Result_nullonfailure_
#endif
#ifndef _Result_zeroonfailure_
#define _Result_zeroonfailure_
#endif
#ifndef _Outptr_result_nullonfailure_
#define _Outptr_result_nullonfailure_
#endif
#ifndef _Outptr_opt_result_nullonfailure_
#define _Outptr_opt_result_nullonfailure_
#endif
#ifndef _Outref_result_nullonfailure_
#define _Outref_result_nullonfailure_
#endif
#ifndef _Outref_
#define _Outref_
#endif
#ifndef _Outref_result_maybenull_
#define _Outref_result_maybenull_
#endif
#ifndef _Outref_result_buffer_
#define _Outref_result_buffer_(...)
#endif
#ifndef _Outref_result_bytebuffer_
#define _Outref_result_bytebuffer_(...)
#endif
#ifndef _Outref_result_buffer_to_
#define _Outref_result_buffer_to_(...)
#endif
#ifndef _Outref_result_bytebuffer_to_
#define _Outref_result_bytebuffer_to_(...)
#endif
#ifndef _Outref_result_buffer_all_
#define _Outref_result_buffer_all_(...)
#endif
#ifndef _Outref_result_bytebuffer_all_
#define _Outref_result_bytebuffer_all_(...)
#endif
#ifndef _Outref_result_buffer_maybenull_
#define _Outref_result_buffer_maybenull_(...)
#endif
#ifndef _Outref_result_bytebuffer_maybenull_
#define _Outref_result_bytebuffer_maybenull_(...)
#endif
#ifndef _Outref_result_buffer_to_maybenull_
#define _Outref_result_buffer_to_maybenull_(...)
#endif
#ifndef _Outref_result_bytebuffer_to_maybenull_
#define _Outref_result_bytebuffer_to_maybenull_(...)
#endif
#ifndef _Outref_result_buffer_all_maybenull_
#define _Outref_result_buffer_all_maybenull_(...)
#endif
#ifndef _Outref_result_bytebuffer_all_maybenull_
#define _Outref_result_bytebuffer_all_maybenull_(...)
#endif

/* Return values */
#ifndef _Ret_z_
#define _Ret_z_
#endif
#ifndef _Ret_writes_
#define _Ret_writes_(...)
#endif
#ifndef _Ret_writes_bytes_
#define _Ret_writes_bytes_(...)
#endif
#ifndef _Ret_writes_z_
#define _Ret_writes_z_(...)
#endif
#ifndef _Ret_writes_to_
#define _Ret_writes_to_(...)
#endif
#ifndef _Ret_writes_maybenull_
#define _Ret_writes_maybenull_(...)
#endif
#ifndef _Ret_writes_to_maybenull_
#define _Ret_writes_to_maybenull_(...)
#endif
#ifndef _Ret_writes_maybenull_z_
#define _Ret_writes_maybenull_z_(...)
#endif
#ifndef _Ret_maybenull_
#define _Ret_maybenull_
#endif
#ifndef _Ret_maybenull_z_
#define _Ret_maybenull_z_
#endif
#ifndef _Ret_null_
#define _Ret_null_
#endif
#ifndef _Ret_notnull_
#define _Ret_notnull_
#endif
#ifndef _Ret_writes_bytes_to_
#define _Ret_writes_bytes_to_(...)
#endif
#ifndef _Ret_writes_bytes_maybenull_
#define _Ret_writes_bytes_maybenull_(...)
#endif
#ifndef _Ret_writes_bytes_to_maybenull_
#define _Ret_writes_bytes_to_maybenull_(...)
#endif
#ifndef _Ret_valid_
#define _Ret_valid_
#endif

/* Format strings */
#ifndef _Printf_format_string_
#define _Printf_format_string_
#endif
#ifndef _Scanf_format_string_
#define _Scanf_format_string_
#endif
#ifndef _Scanf_s_format_string_
#define _Scanf_s_format_string_
#endif

/* Ranges and values */
#ifndef _In_range_
#define _In_range_(...)
#endif
#ifndef _Out_range_
#define _Out_range_(...)
#endif
#ifndef _Ret_range_
#define _Ret_range_(...)
#endif
#ifndef _Deref_in_range_
#define _Deref_in_range_(...)
#endif
#ifndef _Deref_out_range_
#define _Deref_out_range_(...)
#endif
#ifndef _Deref_inout_range_
#define _Deref_inout_range_(...)
#endif
#ifndef _Field_range_
#define _Field_range_(...)
#endif
#ifndef _Pre_equal_to_
#define _Pre_equal_to_(...)
#endif
#ifndef _Post_equal_to_
#define _Post_equal_to_(...)
#endif
#ifndef _Struct_size_bytes_
#define _Struct_size_bytes_(...)
#endif

/* Function behavior */
#ifndef _Check_return_
#define _Check_return_
#endif
#ifndef _Must_inspect_result_
#define _Must_inspect_result_
#endif
#ifndef _Use_decl_annotations_
#define _Use_decl_annotations_
#endif
#ifndef _Success_
#define _Success_(...)
#endif
#ifndef _Return_type_success_
#define _Return_type_success_(...)
#endif
#ifndef _Always_
#define _Always_(...)
#endif
#ifndef _On_failure_
#define _On_failure_(...)
#endif
#ifndef _When_
#define _When_(...)
#endif
#ifndef _At_
#define _At_(...)
#endif

/* Structs and classes */
#ifndef _Field_size_
#define _Field_size_(...)
#endif
#ifndef _Field_size_opt_
#define _Field_size_opt_(...)
#endif
#ifndef _Field_size_bytes_
#define _Field_size_bytes_(...)
#endif
#ifndef _Field_size_bytes_opt_
#define _Field_size_bytes_opt_(...)
#endif
#ifndef _Field_size_part_
#define _Field_size_part_(...)
#endif
#ifndef _Field_size_part_opt_
#define _Field_size_part_opt_(...)
#endif
#ifndef _Field_size_bytes_part_
#define _Field_size_bytes_part_(...)
#endif
#ifndef _Field_size_bytes_part_opt_
#define _Field_size_bytes_part_opt_(...)
#endif
#ifndef _Field_size_full_
#define _Field_size_full_(...)
#endif
#ifndef _Field_size_full_opt_
#define _Field_size_full_opt_(...)
#endif
#ifndef _Field_size_bytes_full_
#define _Field_size_bytes_full_(...)
#endif
#ifndef _Field_size_bytes_full_opt_
#define _Field_size_bytes_full_opt_(...)
#endif
#ifndef _Field_z_
#define _Field_z_
#endif

/* Pre- and post-conditions */
#ifndef _Pre_
#define _Pre_
#endif
#ifndef _Post_
#define _Post_
#endif
#ifndef _Null_terminated_
#define _Null_terminated_
#endif
#ifndef _NullNull_terminated_
#define _NullNull_terminated_
#endif
#ifndef _Pre_z_
#define _Pre_z_
#endif
#ifndef _Post_z_
#define _Post_z_
#endif
#ifndef _Pre_valid_
#define _Pre_valid_
#endif
#ifndef _Post_valid_
#define _Post_valid_
#endif
#ifndef _Pre_notnull_
#define _Pre_notnull_
#endif
#ifndef _Pre_maybenull_
#define _Pre_maybenull_
#endif
#ifndef _Post_notnull_
#define _Post_notnull_
#endif
#ifndef _Post_maybenull_
#define _Post_maybenull_
#endif
#ifndef _Pre_satisfies_
#define _Pre_satisfies_(...)
#endif
#ifndef _Post_satisfies_
#define _Post_satisfies_(...)
#endif
#ifndef _Satisfies_
#define _Satisfies_(...)
#endif
#ifndef _Frees_ptr_
#define _Frees_ptr_
#endif
#ifndef _Frees_ptr_opt_
#define _Frees_ptr_opt_
#endif
#ifndef _Reserved_
#define _Reserved_
#endif
#ifndef _Const_
#define _Const_
#endif
#ifndef _Literal_
#define _Literal_
#endif

/* Locking */
#ifndef _Acquires_lock_
#define _Acquires_lock_(...)
#endif
#ifndef _Releases_lock_
#define _Releases_lock_(...)
#endif
#ifndef _Requires_lock_held_
#define _Requires_lock_held_(...)
#endif
#ifndef _Requires_lock_not_held_
#define _Requires_lock_not_held_(...)
#endif
#ifndef _Acquires_exclusive_lock_
#define _Acquires_exclusive_lock_(...)
#endif
#ifndef _Acquires_shared_lock_
#define _Acquires_shared_lock_(...)
#endif
#ifndef _Releases_exclusive_lock_
#define _Releases_exclusive_lock_(...)
#endif
#ifndef _Releases_shared_lock_
#define _Releases_shared_lock_(...)
#endif
#ifndef _Guarded_by_
#define _Guarded_by_(...)
#endif
#ifndef _Interlocked_
#define _Interlocked_
#endif

/* Analysis */
#ifndef _Analysis_assume_
#define _Analysis_assume_(...)
#endif

#endif /* _included_windows_compat_sal_h */
