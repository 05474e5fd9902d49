/* Re-emits every event of a capture-format file (the
 * reference's own test suite) through eventheader_write: for each record the
 * header, activity ids, metadata extension and payload are taken apart and
 * handed to the library exactly as a caller would, one provider per
 * provider name/options and one tracepoint per tracepoint name.
 *
 *   t_replay FILE   write every event (TRACEPOINT_CAPTURE_FILE selects capture mode); with
 *                   EHK_EXPECT_ENABLED=1 every tracepoint must be enabled at once (perf is
 *                   already recording: the suite records the tracepoints of the capture-mode run).
 */
#include "ehk_common.h"

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#include <ctype.h>

#define MAX_TP 64

struct tp {
    char name[EVENTHEADER_NAME_MAX];
    char provider[EVENTHEADER_NAME_MAX];
    char options[EVENTHEADER_NAME_MAX];
    unsigned level;
    unsigned long long keyword;
    int provider_index;
    tracepoint_state state;
};

struct prov {
    tracepoint_provider_state state;
    eventheader_provider eh;
};

struct rec {
    int tp;
    unsigned char *data; /* own allocation: keeps extensions 2-byte aligned */
    size_t len;
};

static struct tp g_tps[MAX_TP];
static int g_tp_count;
static struct prov g_provs[MAX_TP];
static int g_prov_count;

static int is_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
            return 0;
    return n > 0;
}

/* Splits "Provider_L<hex>K<hex>[Options]"; returns 0 if name is not of that form. */
static int parse_name(const char *name, struct tp *t)
{
    for (const char *p = name + strlen(name); p-- > name;) {
        if (p[0] != '_' || p[1] != 'L')
            continue;
        const char *l = p + 2, *k = strchr(l, 'K');
        if (!k || !is_hex(l, (size_t)(k - l)))
            continue;
        const char *kend = k + 1;
        while (*kend && isxdigit((unsigned char)*kend) && !isupper((unsigned char)*kend))
            kend++;
        if (!is_hex(k + 1, (size_t)(kend - k - 1)) || (*kend && !isupper((unsigned char)*kend)))
            continue;
        snprintf(t->provider, sizeof(t->provider), "%.*s", (int)(p - name), name);
        snprintf(t->options, sizeof(t->options), "%s", kend);
        t->level = (unsigned)strtoul(l, NULL, 16);
        t->keyword = strtoull(k + 1, NULL, 16);
        return 1;
    }
    return 0;
}

static int find_or_add_tp(const char *name)
{
    for (int i = 0; i < g_tp_count; i++)
        if (!strcmp(g_tps[i].name, name))
            return i;
    if (g_tp_count == MAX_TP)
        return -1;
    struct tp *t = &g_tps[g_tp_count];
    snprintf(t->name, sizeof(t->name), "%s", name);
    if (!parse_name(name, t))
        return -1;
    tracepoint_state init = TRACEPOINT_STATE_INIT;
    t->state = init;
    t->provider_index = -1;
    for (int i = 0; i < g_prov_count; i++)
        if (!strcmp(g_provs[i].eh.name, t->provider) && !strcmp(g_provs[i].eh.options, t->options))
            t->provider_index = i;
    if (t->provider_index < 0) {
        struct prov *p = &g_provs[g_prov_count];
        tracepoint_provider_state pinit = TRACEPOINT_PROVIDER_STATE_INIT;
        p->state = pinit;
        p->eh.state = &p->state;
        p->eh.name = t->provider;
        p->eh.options = t->options;
        t->provider_index = g_prov_count++;
    }
    return g_tp_count++;
}

/* Reads the capture-format file: u32 size, name\0, event bytes. */
static struct rec *read_records(const char *path, int *count)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct rec *recs = NULL;
    int n = 0;
    uint32_t size;
    while (fread(&size, 4, 1, f) == 1) {
        if (size < 5 || size > 1 << 20)
            goto bad;
        char *buf = malloc(size - 4);
        if (fread(buf, 1, size - 4, f) != size - 4)
            goto bad;
        size_t name_len = strnlen(buf, size - 4);
        if (name_len == size - 4)
            goto bad;
        recs = realloc(recs, sizeof(*recs) * (size_t)(n + 1));
        recs[n].tp = find_or_add_tp(buf);
        if (recs[n].tp < 0)
            goto bad;
        recs[n].len = size - 4 - name_len - 1;
        recs[n].data = malloc(recs[n].len ? recs[n].len : 1);
        memcpy(recs[n].data, buf + name_len + 1, recs[n].len);
        free(buf);
        n++;
    }
    fclose(f);
    *count = n;
    return recs;
bad:
    fprintf(stderr, "t_replay: %s: malformed record %d\n", path, n);
    fclose(f);
    return NULL;
}

/* Takes one event apart and writes it through eventheader_write. */
static int replay(const struct rec *r)
{
    struct tp *t = &g_tps[r->tp];
    if (r->len < sizeof(eventheader))
        return EINVAL;
    eventheader_tracepoint ev;
    memset(&ev, 0, sizeof(ev));
    ev.state = &t->state;
    memcpy(&ev.header, r->data, sizeof(eventheader));
    ev.keyword = t->keyword;
    ev.header.flags &= (uint8_t)~eventheader_flag_extension;

    const void *activity = NULL, *related = NULL;
    size_t pos = sizeof(eventheader);
    int more = (r->data[0] & eventheader_flag_extension) != 0;
    while (more) {
        eventheader_extension ext;
        if (r->len - pos < sizeof(ext))
            return EINVAL;
        memcpy(&ext, r->data + pos, sizeof(ext));
        unsigned kind = ext.kind & eventheader_extension_kind_value_mask;
        if (kind == eventheader_extension_kind_activity_id && !activity && !ev.metadata &&
            (ext.size == 16 || ext.size == 32)) {
            activity = r->data + pos + sizeof(ext);
            related = ext.size == 32 ? r->data + pos + sizeof(ext) + 16 : NULL;
        } else if (kind == eventheader_extension_kind_metadata && !ev.metadata) {
            ev.metadata = (const eventheader_extension *)(r->data + pos);
        } else {
            /* Anything else travels in the payload, announced by the flag. */
            ev.header.flags |= eventheader_flag_extension;
            break;
        }
        pos += sizeof(ext) + ext.size;
        if (pos > r->len)
            return EINVAL;
        more = (ext.kind & eventheader_extension_kind_chain_flag) != 0;
        if (ev.metadata)
            break; /* what follows the metadata, chained or not, is payload */
    }
    struct iovec vecs[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}};
    unsigned first = ev.metadata ? EVENTHEADER_PREFIX_DATAVEC_COUNT : EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA;
    vecs[first].iov_base = r->data + pos;
    vecs[first].iov_len = r->len - pos;
    return eventheader_write(&ev, activity, related, first + 1, vecs);
}

int main(int argc, char **argv)
{
    check_name = "replay";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 2) {
        fprintf(stderr, "usage: t_replay FILE\n");
        return 2;
    }
    int count = 0;
    struct rec *recs = read_records(argv[1], &count);
    REQUIRE(recs && count > 0, "cannot read records from %s", argv[1]);
    const char *expect = getenv("EHK_EXPECT_ENABLED");
    int expect_enabled = expect && !strcmp(expect, "1");

    for (int i = 0; i < g_prov_count; i++)
        REQUIRE(eventheader_open_provider(&g_provs[i].eh) == 0, "open provider %s", g_provs[i].eh.name);
    for (int i = 0; i < g_tp_count; i++) {
        struct tp *t = &g_tps[i];
        eventheader_tracepoint ev = {&t->state, NULL, {eventheader_flag_default, 0, 0, 0, 0, (uint8_t)t->level}, t->keyword};
        int rc = eventheader_connect(&ev, &g_provs[t->provider_index].eh);
        VERIFYF(rc == 0, "connect %s: %d", t->name, rc);
        if (expect_enabled)
            VERIFYF(TRACEPOINT_ENABLED(&t->state), "%s not enabled right after connect", t->name);
    }
    int written = 0;
    for (int i = 0; i < count; i++) {
        int rc = replay(&recs[i]);
        VERIFYF(rc == 0, "event %d (%s): eventheader_write returned %d", i, g_tps[recs[i].tp].name, rc);
        written += rc == 0;
    }
    printf("replay: %d of %d events written to %d tracepoints of %d providers\n", written, count, g_tp_count,
           g_prov_count);
    for (int i = 0; i < g_prov_count; i++)
        eventheader_close_provider(&g_provs[i].eh);
    return check_finish();
}
