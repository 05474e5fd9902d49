/* Registration from a 32-bit process on the 64-bit arm64 kernel (COMPAT),
 * with raw ioctls: the library has no 32-bit ARM build here (Debian's Rust
 * offers no armhf standard library for its rustc), so this checks the kernel
 * ABI a 32-bit build of the library meets.
 *
 *   t_compat32
 *
 * Linux 6.12's user_events_data has no compat_ioctl, so the kernel answers
 * every ioctl of a 32-bit process on it with ENOTTY: DIAG_IOCSREG as a 32-bit
 * program spells it (_IOWR('*', 0, struct user_reg *): pointer size 4), with
 * enable_size 4 and bit 31 of a 32-bit word, and as a 64-bit one spells it.
 * This checks that: both refused with ENOTTY, nothing registered, the word
 * untouched, and a write to the (unregistered) index 0 refused. A kernel that
 * accepts the registration fails the check, which then wants the enable-bit
 * checks of t_enable.c. Prints "compat32: N checks, M failed"; exit status 1
 * on a failure. */
#include "ehk_common.h"

_Static_assert(sizeof(void *) == 4, "t_compat32 is a 32-bit program");

#define NAME "EhkArm32_L5K1"
#define BIT 31
/* DIAG_IOCSREG as a 64-bit program spells it (pointer size 8). */
#define DIAG_IOCSREG_64 0xC0082A00u

static uint32_t g_word;

static int reg(int fd, unsigned long cmd)
{
    struct ehk_user_reg r = {0};
    r.size = sizeof(r);
    r.enable_bit = BIT;
    r.enable_size = 4;
    r.enable_addr = (uint32_t)(uintptr_t)&g_word;
    r.name_args = (uint32_t)(uintptr_t)(NAME " " EHK_REFERENCE_ARGS);
    int rc = ioctl(fd, cmd, &r);
    return rc < 0 ? errno : 0;
}

int main(void)
{
    check_name = "compat32";
    setvbuf(stdout, NULL, _IOLBF, 0);
    VERIFYF(EHK_DIAG_IOCSREG == 0xC0042A00u, "DIAG_IOCSREG 0x%x", (unsigned)EHK_DIAG_IOCSREG);
    int fd = open(EHK_DATA_FILE, O_RDWR | O_CLOEXEC);
    REQUIRE(fd >= 0, "open %s: errno %d", EHK_DATA_FILE, errno);

    int rc32 = reg(fd, EHK_DIAG_IOCSREG), rc64 = reg(fd, DIAG_IOCSREG_64);
    printf("compat32: DIAG_IOCSREG from a 32-bit process: errno %d (%s); with the 64-bit number: errno %d\n",
           rc32, strerror(rc32), rc64);
    VERIFYF(rc32 == ENOTTY, "DIAG_IOCSREG 0x%x: errno %d, want ENOTTY", (unsigned)EHK_DIAG_IOCSREG, rc32);
    VERIFYF(rc64 == ENOTTY, "DIAG_IOCSREG 0x%x: errno %d, want ENOTTY", DIAG_IOCSREG_64, rc64);
    char buf[1024];
    VERIFYF(!strcmp(ehk_dynamic_event(NAME, buf), ""), "dynamic_events has \"%s\"", buf);
    VERIFYF(g_word == 0, "word 0x%x", (unsigned)g_word);
    int index = 0;
    uint32_t value = 32;
    struct iovec v[2] = {{&index, sizeof(index)}, {&value, sizeof(value)}};
    VERIFYF(writev(fd, v, 2) < 0, "write to an unregistered index succeeded");
    close(fd);
    return check_finish();
}
