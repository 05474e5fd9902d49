/*
 * tracepoint_open_provider_with_tracepoints and
 * eventheader_open_provider_with_events with arrays holding duplicates and
 * NULLs, plus plain tracepoint_connect/tracepoint_write (no EventHeader), in
 * capture mode. Checks the state blocks here (the array left unchanged: the
 * library only reads it; ref_count, the provider's tracepoint list, each
 * state enabled and linked once) and writes one event per tracepoint; the
 * capture is checked by dedup.rs:
 *
 *   CoreTpA   44 33 22 11            (u32 0x11223344 in two vectors)
 *   CoreTpB   55
 *   CoreTpC   00                     (no payload: one padding byte)
 *   CoreTpD   66 77                  (tracepoint_connect)
 *   CoreTpE   88                     (tracepoint_connect2, flags 0)
 *   CoreDedup_L5K1Gtest  E1 event    (x = 1)
 *   CoreDedup_L5K1Gtest  E2 event    (x = 2)
 *   CoreDedup_L4K2Gtest  E3 event    (x = 3)
 *
 * Prints "empty-vector-event <n>" for the size of a write whose only
 * payload vector is empty (informational).
 */
#include "metabuild.h"

/* Counts the tracepoints linked into a provider and checks that `expect`
   (n states) are each linked exactly once. */
static unsigned list_count(tracepoint_provider_state const* p, tracepoint_state* const* expect, unsigned n)
{
    unsigned count = 0;
    unsigned seen[16] = { 0 };
    tracepoint_list_node const* head = &p->tracepoint_list_head;
    tracepoint_list_node const* node = head->next;
    CHECK(n <= 16);
    if (node == NULL) {
        return 0;
    }
    while (node != head) {
        tracepoint_state const* tp =
            (tracepoint_state const*)((char const*)node - offsetof(tracepoint_state, tracepoint_list_link));
        CHECK(node->next->prev == node); /* doubly linked consistently */
        for (unsigned i = 0; i < n; i += 1) {
            if (expect[i] == tp) {
                seen[i] += 1;
            }
        }
        count += 1;
        CHECK(count < 1000);
        node = node->next;
    }
    for (unsigned i = 0; i < n; i += 1) {
        CHECK_EQ_INT(1, seen[i]);
    }
    return count;
}

static void check_connected(tracepoint_state const* tp, tracepoint_provider_state const* p)
{
    CHECK(TRACEPOINT_ENABLED(tp));
    CHECK(tp->write_index >= 0);
    CHECK(tp->provider_state == p);
    CHECK(tp->tracepoint_list_link.next != NULL);
}

static void check_reset(tracepoint_state const* tp)
{
    CHECK(!TRACEPOINT_ENABLED(tp));
    CHECK_EQ_INT(-1, tp->write_index);
    CHECK(tp->provider_state == NULL);
    CHECK(tp->tracepoint_list_link.next == NULL);
    CHECK(tp->tracepoint_list_link.prev == NULL);
}

static int write_bytes(tracepoint_state const* tp, void const* data, size_t n)
{
    struct iovec vecs[2];
    vecs[0].iov_base = NULL;
    vecs[0].iov_len = 0;
    vecs[1].iov_base = (void*)data;
    vecs[1].iov_len = n;
    return tracepoint_write(tp, 2, vecs);
}

static void tracepoint_layer(void)
{
    static tracepoint_provider_state prov = TRACEPOINT_PROVIDER_STATE_INIT;
    static tracepoint_state a = TRACEPOINT_STATE_INIT;
    static tracepoint_state b = TRACEPOINT_STATE_INIT;
    static tracepoint_state c = TRACEPOINT_STATE_INIT;
    static tracepoint_state d = TRACEPOINT_STATE_INIT;
    static tracepoint_state e = TRACEPOINT_STATE_INIT;
    static tracepoint_definition const def_a = { &a, "CoreTpA u32 x" };
    static tracepoint_definition const def_b = { &b, "CoreTpB u8 y" };
    static tracepoint_definition const def_c = { &c, "CoreTpC" };
    tracepoint_definition const* defs[] = { &def_b, NULL, &def_a, &def_b, &def_c, NULL, &def_a, &def_a };
    unsigned const ndefs = sizeof(defs) / sizeof(defs[0]);
    tracepoint_state* const states[] = { &a, &b, &c };

    tracepoint_definition const* before[sizeof(defs) / sizeof(defs[0])];
    memcpy(before, defs, sizeof(defs));

    CHECK_EQ_INT(0, tracepoint_open_provider_with_tracepoints(&prov, defs, defs + ndefs));

    /* The array is only read (it may be in read-only memory): unchanged. */
    CHECK(memcmp(before, defs, sizeof(defs)) == 0);
    CHECK_EQ_INT(3, prov.ref_count);
    CHECK_EQ_INT(3, list_count(&prov, states, 3));
    check_connected(&a, &prov);
    check_connected(&b, &prov);
    check_connected(&c, &prov);
    printf("tp-dedup ok ref_count %u\n", prov.ref_count);

    {
        uint32_t const x = 0x11223344;
        struct iovec vecs[3];
        vecs[0].iov_base = NULL;
        vecs[0].iov_len = 0;
        vecs[1].iov_base = (void*)&x;
        vecs[1].iov_len = 1;
        vecs[2].iov_base = (char*)&x + 1;
        vecs[2].iov_len = 3;
        CHECK_EQ_INT(0, tracepoint_write(&a, 3, vecs));
    }
    {
        uint8_t const y = 0x55;
        CHECK_EQ_INT(0, write_bytes(&b, &y, 1));
    }
    {
        struct iovec only;
        only.iov_base = NULL;
        only.iov_len = 0;
        CHECK_EQ_INT(0, tracepoint_write(&c, 1, &only));
    }

    /* Plain connect and connect2. */
    CHECK_EQ_INT(0, tracepoint_connect(&d, &prov, "CoreTpD u16 z"));
    CHECK_EQ_INT(0, tracepoint_connect2(&e, &prov, "CoreTpE u8 w", 0));
    check_connected(&d, &prov);
    check_connected(&e, &prov);
    CHECK_EQ_INT(5, prov.ref_count);
    {
        uint8_t const z[2] = { 0x66, 0x77 };
        uint8_t const w = 0x88;
        CHECK_EQ_INT(0, write_bytes(&d, z, 2));
        CHECK_EQ_INT(0, write_bytes(&e, &w, 1));
    }

    /* Reconnecting a connected tracepoint keeps it linked once. */
    CHECK_EQ_INT(0, tracepoint_connect(&d, &prov, "CoreTpD u16 z"));
    CHECK_EQ_INT(5, prov.ref_count);
    {
        tracepoint_state* const five[] = { &a, &b, &c, &d, &e };
        CHECK_EQ_INT(5, list_count(&prov, five, 5));
    }

    /* Disconnect d and e: writes now fail with EBADF, nothing is written. */
    CHECK_EQ_INT(0, tracepoint_connect(&d, NULL, NULL));
    CHECK_EQ_INT(0, tracepoint_connect(&e, NULL, "CoreTpE u8 w"));
    check_reset(&d);
    check_reset(&e);
    CHECK_EQ_INT(3, prov.ref_count);
    CHECK_EQ_INT(3, list_count(&prov, states, 3));
    {
        uint8_t const z = 0x99;
        CHECK_EQ_INT(EBADF, write_bytes(&d, &z, 1));
        CHECK_EQ_INT(EBADF, write_bytes(&e, &z, 1));
    }

    /* Closing resets every tracepoint. */
    tracepoint_close_provider(&prov);
    CHECK_EQ_INT(-1, prov.data_file);
    CHECK_EQ_INT(0, prov.ref_count);
    check_reset(&a);
    check_reset(&b);
    check_reset(&c);
    {
        uint8_t const z = 0x99;
        CHECK_EQ_INT(EBADF, write_bytes(&a, &z, 1));
    }
    tracepoint_close_provider(&prov); /* closing twice is a no-op */
}

static void empty_vector_probe(void)
{
    /* Informational: one payload vector of 0 bytes (a 0-byte payload given
       as a vector rather than as data_count 1). Written to its own
       tracepoint name so the test can find it. */
    static tracepoint_provider_state prov = TRACEPOINT_PROVIDER_STATE_INIT;
    static tracepoint_state f = TRACEPOINT_STATE_INIT;
    CHECK_EQ_INT(0, tracepoint_open_provider(&prov));
    CHECK_EQ_INT(0, tracepoint_connect(&f, &prov, "CoreTpEmptyVec"));
    CHECK_EQ_INT(0, write_bytes(&f, "", 0));
    tracepoint_close_provider(&prov);
}

static void eventheader_layer(void)
{
    static tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    static eventheader_provider const prov = { &state, "Gtest", "CoreDedup" };
    static tracepoint_state s1 = TRACEPOINT_STATE_INIT;
    static tracepoint_state s2 = TRACEPOINT_STATE_INIT;
    static tracepoint_state s3 = TRACEPOINT_STATE_INIT;
    static mb m1, m2, m3;
    eventheader_tracepoint e1, e2, e3;
    tracepoint_state* const states[] = { &s1, &s2, &s3 };

    mb_begin(&m1, "E1");
    mb_field(&m1, "x", event_field_encoding_value8);
    mb_begin(&m2, "E2");
    mb_field(&m2, "x", event_field_encoding_value8);
    mb_begin(&m3, "E3");
    mb_field(&m3, "x", event_field_encoding_value8);

    e1.state = &s1;
    e1.metadata = mb_end(&m1);
    e1.header.flags = eventheader_flag_default;
    e1.header.version = 0;
    e1.header.id = 0;
    e1.header.tag = 0;
    e1.header.opcode = event_opcode_info;
    e1.header.level = event_level_verbose;
    e1.keyword = 1;
    e2 = e1;
    e2.state = &s2;
    e2.metadata = mb_end(&m2);
    e3 = e1;
    e3.state = &s3;
    e3.metadata = mb_end(&m3);
    e3.header.level = event_level_information;
    e3.keyword = 2;

    {
        eventheader_tracepoint const* events[] = { &e3, &e1, NULL, &e1, &e2, &e3, NULL, &e2, &e1 };
        unsigned const n = sizeof(events) / sizeof(events[0]);
        eventheader_tracepoint const* before[sizeof(events) / sizeof(events[0])];
        memcpy(before, events, sizeof(events));
        CHECK_EQ_INT(0, eventheader_open_provider_with_events(&prov, events, events + n));
        CHECK(memcmp(before, events, sizeof(events)) == 0); /* only read */
    }
    CHECK_EQ_INT(3, state.ref_count);
    CHECK_EQ_INT(3, list_count(&state, states, 3));
    check_connected(&s1, &state);
    check_connected(&s2, &state);
    check_connected(&s3, &state);
    printf("eh-dedup ok ref_count %u\n", state.ref_count);

    {
        eventheader_tracepoint const* const all[] = { &e1, &e2, &e3 };
        for (unsigned i = 0; i < 3; i += 1) {
            pb p;
            pb_init(&p);
            pb_u8(&p, (uint8_t)(i + 1));
            CHECK_EQ_INT(0, write_payload(all[i], NULL, NULL, &p, 1));
        }
    }
    eventheader_close_provider(&prov);
    check_reset(&s1);
    check_reset(&s2);
    check_reset(&s3);
    CHECK_EQ_INT(0, state.ref_count);

    /* Empty ranges: both NULL, or start == stop. */
    {
        eventheader_tracepoint const* none[1] = { NULL };
        CHECK_EQ_INT(0, eventheader_open_provider_with_events(&prov, NULL, NULL));
        eventheader_close_provider(&prov);
        CHECK_EQ_INT(0, eventheader_open_provider_with_events(&prov, none, none));
        eventheader_close_provider(&prov);
        CHECK_EQ_INT(0, eventheader_open_provider_with_events(&prov, none, none + 1));
        CHECK_EQ_INT(0, state.ref_count);
        eventheader_close_provider(&prov);
    }
}

int main(void)
{
    tracepoint_layer();
    eventheader_layer();
    empty_vector_probe();
    printf("done\n");
    return 0;
}
