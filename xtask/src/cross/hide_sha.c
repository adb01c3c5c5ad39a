/* Preloaded (LD_PRELOAD) into the aarch64 test programs of the
 * `cargo xtask cross` run that must take sha1-fast's fallback. No CPU model
 * of QEMU's user-mode emulator lacks the SHA instructions, and none can be
 * told to, so this hides them where programs look: the AT_HWCAP word of
 * getauxval, which Rust's std (is_aarch64_feature_detected!) and the
 * cpufeatures crate both read. The instructions themselves still execute;
 * what the run proves is that detection, not luck, chooses the fallback. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/auxv.h>

unsigned long getauxval(unsigned long type)
{
    /* glibc's own; looked up on every call (detection caches its answer,
     * so there are few) to need no synchronisation between threads. */
    unsigned long (*next)(unsigned long) =
        (unsigned long (*)(unsigned long))dlsym(RTLD_NEXT, "getauxval");
    unsigned long value = next(type);
    if (type == AT_HWCAP)
        value &= ~(HWCAP_SHA1 | HWCAP_SHA2 | HWCAP_SHA3 | HWCAP_SHA512);
    return value;
}
