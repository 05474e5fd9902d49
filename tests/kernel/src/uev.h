/* Kernel user_events ABI (Documentation/trace/user_events.rst), declared here
 * because distribution kernel headers older than 6.4 do not ship it. Used by
 * the raw-ioctl helper and the tests that talk to the kernel directly. */
#ifndef EHK_UEV_H
#define EHK_UEV_H

#include <stdint.h>
#include <sys/ioctl.h>

struct ehk_user_reg {
    uint32_t size;
    uint8_t enable_bit;
    uint8_t enable_size;
    uint16_t flags;
    uint64_t enable_addr;
    uint64_t name_args;
    uint32_t write_index;
} __attribute__((packed));

struct ehk_user_unreg {
    uint32_t size;
    uint8_t disable_bit;
    uint8_t reserved;
    uint16_t reserved2;
    uint64_t disable_addr;
} __attribute__((packed));

#define EHK_DIAG_IOC_MAGIC '*'
#define EHK_DIAG_IOCSREG _IOWR(EHK_DIAG_IOC_MAGIC, 0, struct ehk_user_reg *)
#define EHK_DIAG_IOCSDEL _IOW(EHK_DIAG_IOC_MAGIC, 1, char *)
#define EHK_DIAG_IOCSUNREG _IOW(EHK_DIAG_IOC_MAGIC, 2, struct ehk_user_unreg *)

/* The registration argument list every EventHeader tracepoint uses
 * (docs/format.md §3.3), spelled out independently of the library headers
 * so that a typo in either place is caught. */
#define EHK_REFERENCE_ARGS \
    "u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level"

#define EHK_TRACEFS "/sys/kernel/tracing"
#define EHK_DATA_FILE EHK_TRACEFS "/user_events_data"

#endif
