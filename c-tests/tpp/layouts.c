/* tpp_layouts: the plain tracepoint layouts real user_events clients
 * register, each written twice with the values below (main.rs and the
 * VM checker decode them back and hold their own copy of these values).
 *
 *   TppLayout_dotnet_ipc      .NET 10 EventPipe user_events, IPC design:
 *                             u16 event_id; __rel_loc u8[] payload; __rel_loc u8[] meta
 *   TppLayout_dotnet_runtime  .NET 10 runtime source:
 *                             u8 version; u16 event_id; __rel_loc u8[] extension; __rel_loc u8[] payload
 *   TppLayout_otlp_cpp        OpenTelemetry C++ metrics exporter: a bare name, no
 *                             fields, the payload is the protobuf bytes
 *   TppLayout_otlp_rust       OpenTelemetry Rust metrics exporter:
 *                             u32 protocol;char[8] version;__rel_loc u8[] buffer;
 *
 * The first, second and fourth go through tracepoint-provider.h (TPP_FUNCTION).
 * The third cannot: a TPP tracepoint without fields has no payload, so it is
 * registered and written through tracepoint.h, as the C++ exporter does.
 * (The clients' own tracepoint names, e.g. "otlp_metrics" for both OpenTelemetry
 * layouts, would collide; the layouts are what matters.)
 *
 * Registers, writes, unregisters; prints each write's result and exits 0 if
 * every registration and write succeeded. */
#include <tracepoint/tracepoint-provider.h>

#include <stdio.h>
#include <string.h>

TPP_DEFINE_PROVIDER(TppLayouts);

TPP_FUNCTION(TppLayouts, "TppLayout_dotnet_ipc", dotnet_ipc,
    TPP_UINT16("event_id", event_id),
    TPP_CUSTOM_REL_LOC("u8[] payload", uint8_t, payload_len, payload),
    TPP_CUSTOM_REL_LOC("u8[] meta", uint8_t, meta_len, meta));

TPP_FUNCTION(TppLayouts, "TppLayout_dotnet_runtime", dotnet_runtime,
    TPP_UINT8("version", version),
    TPP_UINT16("event_id", event_id),
    TPP_CUSTOM_REL_LOC("u8[] extension", uint8_t, extension_len, extension),
    TPP_CUSTOM_REL_LOC("u8[] payload", uint8_t, payload_len, payload));

TPP_FUNCTION(TppLayouts, "TppLayout_otlp_rust", otlp_rust,
    TPP_UINT32("protocol", protocol),
    TPP_CHAR_ARRAY("version", 8, version),
    TPP_CUSTOM_REL_LOC("u8[] buffer", uint8_t, buffer_len, buffer));

/* The OpenTelemetry C++ layout, through tracepoint.h. */
static tracepoint_provider_state otlp_cpp_provider = TRACEPOINT_PROVIDER_STATE_INIT;
static tracepoint_state otlp_cpp_state = TRACEPOINT_STATE_INIT;

static int otlp_cpp(uint8_t const* buffer, size_t size)
{
    struct iovec vecs[2] = { { NULL, 0 }, { (void*)buffer, size } };
    if (!TRACEPOINT_ENABLED(&otlp_cpp_state))
        return EBADF;
    return tracepoint_write(&otlp_cpp_state, 2, vecs);
}

/* The values (the same in main.rs). */
static uint8_t const ipc_payload[10] = { 0x01, 0x00, 0x00, 0x00, 'H', 0x00, 'i', 0x00, 0x00, 0x00 };
static uint8_t const ipc_meta[6] = { 0x0a, 0x00, 0x00, 0x00, 0xfe, 0xff };
static uint8_t const ipc_meta2[3] = { 0x11, 0x22, 0x33 };
static uint8_t const rt_extension[4] = { 0x01, 0x10, 0x00, 0x00 };
static uint8_t const rt_payload[7] = { 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
static uint8_t const rt_payload2[1] = { 0x99 };
static uint8_t const otlp_buffer[12] = { 0x0a, 0x0a, 0x0a, 0x08, 0x0a, 0x06, 's', 'e', 'r', 'v', 'e', 'r' };
static uint8_t const otlp_cpp_buffer[9] = { 0x0a, 0x07, 0x12, 0x05, 'h', 'e', 'l', 'l', 'o' };

int main(void)
{
    int err, failed = 0;
    uint8_t big[300];
    for (int i = 0; i < 300; i++)
        big[i] = (uint8_t)(i * 7);

    err = TPP_REGISTER_PROVIDER(TppLayouts);
    if (err == 0)
        err = tracepoint_open_provider(&otlp_cpp_provider);
    if (err == 0)
        err = tracepoint_connect(&otlp_cpp_state, &otlp_cpp_provider, "TppLayout_otlp_cpp");
    if (err != 0) {
        fprintf(stderr, "registration failed: %d (%s)\n", err, strerror(err));
        return 1;
    }

#define LAYOUT_WRITE(call) \
    do { \
        int e_ = (call); \
        printf("%s: %d\n", #call, e_); \
        failed |= e_ != 0; \
    } while (0)
    LAYOUT_WRITE(dotnet_ipc(1, sizeof(ipc_payload), ipc_payload, sizeof(ipc_meta), ipc_meta));
    LAYOUT_WRITE(dotnet_ipc(65535, 0, ipc_payload, sizeof(ipc_meta2), ipc_meta2));
    LAYOUT_WRITE(dotnet_runtime(1, 300, sizeof(rt_extension), rt_extension, sizeof(rt_payload), rt_payload));
    LAYOUT_WRITE(dotnet_runtime(2, 0, 0, NULL, sizeof(rt_payload2), rt_payload2));
    LAYOUT_WRITE(otlp_cpp(otlp_cpp_buffer, sizeof(otlp_cpp_buffer)));
    LAYOUT_WRITE(otlp_cpp(big, sizeof(big)));
    LAYOUT_WRITE(otlp_rust(0, "0.29.0\0\0", sizeof(otlp_buffer), otlp_buffer));
    LAYOUT_WRITE(otlp_rust(1, "abcdefgh", 0, NULL));

    tracepoint_close_provider(&otlp_cpp_provider);
    TPP_UNREGISTER_PROVIDER(TppLayouts);
    return failed;
}
