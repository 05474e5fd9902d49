#ifndef _included_tracepoint_impl_h
#define _included_tracepoint_impl_h 1

#pragma once

/*
Helpers for writing your own implementation of the tracepoint.h functions.

The tracepoint layer is replaceable at link time: a program (or a library
linked before this one) that defines tracepoint_open_provider,
tracepoint_close_provider, tracepoint_open_provider_with_tracepoints,
tracepoint_connect and tracepoint_write itself receives every event of the
layers above it: eventheader_write, TraceLoggingWrite, tracepoint-provider.h
and runtime-defined events (eventheader-dynamic.h, EventHeaderDynamic.h),
with the shared library and with the static one. The library tells at run
time, once, whether the functions are its own or the program's; with the
static library, defining them keeps the library's own out of the link.
Typical uses: a mock for tests, a writer to a file.

An implementation keeps the state blocks of tracepoint-state.h consistent,
because the library's EventHeader layer and the programs' inline code read
them: status_word is non-zero while the tracepoint is enabled
(TRACEPOINT_ENABLED), and every tracepoint connected to a provider is linked
into the provider's list. The helpers below do the list and field updates;
call them while holding the lock that guards your implementation's state, so
that each update is seen whole:

- tracepoint_open_provider: tracepoint_open_provider_impl(state, file);
- tracepoint_close_provider: tracepoint_close_provider_impl(state);
- tracepoint_connect: tracepoint_connect_impl(tp, provider, write_index),
  then set tp->status_word if the tracepoint is enabled;
- tracepoint_open_provider_with_tracepoints:
  return tracepoint_open_provider_with_tracepoints_impl(state, start, stop);
  (it calls your tracepoint_open_provider and tracepoint_connect).

The EventHeader layer calls tracepoint_open_provider, tracepoint_close_provider,
tracepoint_connect (provider NULL and name NULL to disconnect) and
tracepoint_write (data_vecs[0] empty, for the implementation's own header).
Each tracepoint's registration string is "Name arg-spec"; the EventHeader
layer's names are "Provider_L<level>K<keyword><options>".
*/

#include <tracepoint/tracepoint.h>
#include <stddef.h>
#include <stdlib.h>

/*
The comparison of tracepoint_fix_array's sort: pointers from the highest
address to the lowest, so that NULLs end up last.
*/
static inline int
tracepoint_fix_array_compare(void const* left, void const* right)
{
    void const* a = *(void const* const*)left;
    void const* b = *(void const* const*)right;
    return a == b ? 0 : (a < b ? 1 : -1);
}

/*
Sorts the array of pointers [start_ptr, stop_ptr) in place, keeps each
non-NULL pointer once at its front and sets the rest of the array to NULL.
Returns the end of the pointers kept (start_ptr + their count).
For tracepoint_open_provider_with_tracepoints and the like, whose arrays
(gathered from a linker section) may hold duplicates and NULL padding.
*/
static inline void*
tracepoint_fix_array(void const** start_ptr, void const** stop_ptr)
{
    size_t const count = start_ptr < stop_ptr ? (size_t)(stop_ptr - start_ptr) : 0;
    size_t kept = 0;
    size_t i;
    if (count == 0)
    {
        return (void*)start_ptr;
    }
    qsort((void*)start_ptr, count, sizeof(void const*), tracepoint_fix_array_compare);
    for (i = 0; i != count && start_ptr[i] != NULL; i += 1)
    {
        if (kept == 0 || start_ptr[kept - 1] != start_ptr[i])
        {
            start_ptr[kept] = start_ptr[i];
            kept += 1;
        }
    }
    for (i = kept; i != count; i += 1)
    {
        start_ptr[i] = NULL;
    }
    return (void*)(start_ptr + kept);
}

/*
An implementation of tracepoint_open_provider_with_tracepoints over the
implementation's tracepoint_open_provider and tracepoint_connect: opens the
provider (returning its error, if any), then connects each distinct
tracepoint of the array (tracepoint_fix_array), ignoring their errors, and
returns 0.
*/
static inline int
tracepoint_open_provider_with_tracepoints_impl(
    tracepoint_provider_state* provider_state,
    tracepoint_definition const** tp_definition_start,
    tracepoint_definition const** tp_definition_stop)
{
    tracepoint_definition const** end;
    tracepoint_definition const** it;
    int const err = tracepoint_open_provider(provider_state);
    if (err != 0)
    {
        return err;
    }
    end = (tracepoint_definition const**)tracepoint_fix_array(
        (void const**)tp_definition_start, (void const**)tp_definition_stop);
    for (it = tp_definition_start; it != end; it += 1)
    {
        (void)tracepoint_connect((*it)->state, provider_state, (*it)->tp_name_args);
    }
    return 0;
}

/*
The state updates of tracepoint_open_provider, under the implementation's
lock: every tracepoint still in the provider's list (connected while it was
closed) is reset to TRACEPOINT_STATE_INIT and leaves the list; then the
provider gets data_file, a ref_count of 0 and an empty list.
*/
static inline void
tracepoint_open_provider_impl(tracepoint_provider_state* provider_state, int data_file)
{
    tracepoint_list_node* const head = &provider_state->tracepoint_list_head;
    tracepoint_list_node* node = head->next;
    while (node != NULL && node != head)
    {
        tracepoint_state* const tp = (tracepoint_state*)(void*)
            ((char*)node - offsetof(tracepoint_state, tracepoint_list_link));
        node = node->next;
        __atomic_store_n(&tp->status_word, 0u, __ATOMIC_RELAXED);
        __atomic_store_n(&tp->write_index, -1, __ATOMIC_RELAXED);
        __atomic_store_n(&tp->provider_state, (tracepoint_provider_state const*)NULL, __ATOMIC_RELAXED);
        tp->tracepoint_list_link.next = NULL;
        tp->tracepoint_list_link.prev = NULL;
    }
    __atomic_store_n(&provider_state->data_file, data_file, __ATOMIC_RELAXED);
    __atomic_store_n(&provider_state->ref_count, 0u, __ATOMIC_RELAXED);
    head->next = head;
    head->prev = head;
}

/*
The state updates of tracepoint_close_provider, under the implementation's
lock: as tracepoint_open_provider_impl with data_file -1 (closed). The
implementation unregisters the provider's tracepoints before, if it
registered them anywhere.
*/
static inline void
tracepoint_close_provider_impl(tracepoint_provider_state* provider_state)
{
    tracepoint_open_provider_impl(provider_state, -1);
}

/*
The state updates of tracepoint_connect, under the implementation's lock:
the tracepoint leaves the list of the provider it is connected to (if any)
and takes write_index and provider_state. Connected to a provider
(provider_state not NULL), it joins that provider's list (the list is
initialized first if the provider was never opened); its status_word is
left to the implementation. Disconnected (provider_state NULL), its
status_word becomes 0.
*/
static inline void
tracepoint_connect_impl(
    tracepoint_state* tp_state,
    tracepoint_provider_state* provider_state,
    int write_index)
{
    tracepoint_list_node* const link = &tp_state->tracepoint_list_link;
    if (tp_state->provider_state != NULL && link->next != NULL)
    {
        link->next->prev = link->prev;
        link->prev->next = link->next;
    }
    __atomic_store_n(&tp_state->write_index, write_index, __ATOMIC_RELAXED);
    __atomic_store_n(&tp_state->provider_state, (tracepoint_provider_state const*)provider_state,
        __ATOMIC_RELAXED);
    if (provider_state == NULL)
    {
        __atomic_store_n(&tp_state->status_word, 0u, __ATOMIC_RELAXED);
        link->next = NULL;
        link->prev = NULL;
    }
    else
    {
        tracepoint_list_node* const head = &provider_state->tracepoint_list_head;
        if (head->next == NULL)
        {
            head->next = head;
            head->prev = head;
        }
        link->next = head->next;
        link->prev = head;
        head->next->prev = link;
        head->next = link;
    }
}

#endif /* _included_tracepoint_impl_h */
