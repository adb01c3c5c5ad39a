//! The detection token that each hardware backend module (`x86`,
//! `aarch64`) declares: how it proves its features are there differs by
//! architecture, what the proof is does not.

/// Declares `$token`, a zero-sized proof that the CPU has a backend's
/// features: `$token::detect` makes one when `$present` (a cached lookup)
/// is true and `--cfg sha1_fast_force="none"` has not turned detection off.
macro_rules! token {
    ($(#[$doc:meta])* $token:ident, $present:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $token(());

        impl $token {
            /// The token, if the CPU (and the OS, where it must save
            /// registers) supports every feature this module enables.
            /// Cheap after the first call.
            #[inline]
            pub(crate) fn detect() -> Option<$token> {
                (!cfg!(sha1_fast_force = "none") && $present).then_some($token(()))
            }
        }
    };
}
