//! Every x86-64 detection token, and the one vendor fact the choice of
//! kernels reads. A token is a zero-sized proof that CPUID reported its
//! features; the kernels' entry points take it.

detection_token! {
    /// Proof that the CPU has the SHA extensions, and SSE4.1 and what it
    /// implies, which every SHA-capable x86 CPU has but which the code
    /// also uses.
    ShaNi in sha_ni: "sha", "sse2", "sse3", "ssse3", "sse4.1"
}

detection_token! {
    /// Proof that the CPU has SSSE3 (and SSE3, which it implies).
    Ssse3 in ssse3: "ssse3", "sse3", "sse2"
}

detection_token! {
    /// Proof that the CPU has AVX2 and that the OS saves the YMM registers
    /// (`cpufeatures` checks both), and every feature `avx2` implies,
    /// SSSE3 among them.
    Avx2 in avx2: "avx2", "avx", "sse4.2", "sse4.1", "ssse3", "sse3", "sse2"
}

detection_token! {
    /// Proof that the CPU has AVX-512 F and BW (and that the OS saves the
    /// ZMM registers), and every feature they imply: what the sixteen-lane
    /// kernel needs.
    Avx512 in avx512: "avx512f", "avx512bw", "avx2", "avx", "fma", "sse4.2", "sse4.1",
        "ssse3", "sse3", "sse2"
}

detection_token! {
    /// Proof that the CPU has AVX-512 F, BW, VL and VBMI and GFNI (and
    /// that the OS saves the ZMM registers), and every feature they imply:
    /// what the AVX-512 filters and the SHA-NI kernel's AVX-512VL form
    /// need.
    Avx512Vbmi in avx512_vbmi: "avx512f", "avx512bw", "avx512vl", "avx512vbmi", "gfni",
        "avx2", "avx", "fma", "sse4.2", "sse4.1", "ssse3", "sse3", "sse2"
}

/// Whether the SHA unit runs `sha1msg2` in hardware: true on AMD's cores
/// (Zen, and Hygon's), false on Intel's, where Golden Cove runs it from
/// microcode. Cached after the first call.
pub(crate) fn sha_msg2_in_hardware() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not asked yet, 1: no, 2: yes.
    static HARDWARE: AtomicU8 = AtomicU8::new(0);
    match HARDWARE.load(Ordering::Relaxed) {
        0 => {
            // SAFETY: every x86-64 CPU has `cpuid`; leaf 0 is always
            // valid and names the vendor in EBX, EDX, ECX.
            #[allow(unused_unsafe)]
            let leaf = unsafe { core::arch::x86_64::__cpuid(0) };
            let vendor = [leaf.ebx, leaf.edx, leaf.ecx].map(u32::to_le_bytes);
            let amd = matches!(vendor.as_flattened(), b"AuthenticAMD" | b"HygonGenuine");
            HARDWARE.store(1 + u8::from(amd), Ordering::Relaxed);
            amd
        }
        state => state == 2,
    }
}
