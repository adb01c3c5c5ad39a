//! The public label of a compression backend, and the run-time choice of
//! one.
//!
//! Adding a backend means: a variant here, an entry in [`Backend::ALL`]
//! (ordered by preference, so [`Backend::detect`] picks the first available
//! one), an arm in `name`, an [`Engine`] variant (`engine.rs`), and its own
//! module. Nothing else in the crate names a backend, except to force one
//! by name: `forced` below and the accepted values in `build.rs`
//! (docs/sha1.md lists the places outside the crate).

use crate::engine::Engine;
use crate::{Digest, LengthMismatch};
use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering};

/// A SHA-1 compression implementation.
///
/// Every backend computes the same function; they differ in speed and in
/// what the CPU must support. [`Backend::Scalar`] exists on every target.
/// New variants may be added in minor releases, so `match`es need a
/// wildcard arm.
///
/// ```
/// use sha1_fast::{Backend, Sha1};
///
/// for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
///     let mut hasher = Sha1::with_backend(backend).unwrap();
///     hasher.update(b"abc");
///     assert_eq!(hasher.finalize().to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// The x86 SHA extensions (SHA-NI: Intel since Goldmont and Ice Lake,
    /// AMD since Zen), through `core::arch` intrinsics. Available only on
    /// x86-64 CPUs that report them; listed in [`Backend::ALL`] only on
    /// x86-64 builds. [`crate::digest_many_into`] on it hashes sixteen
    /// messages at once in the lanes of AVX-512 vectors when the CPU has
    /// AVX-512 F and BW, else five interleaved SHA-NI streams, the last few
    /// on SHA-NI.
    ///
    /// ```
    /// use sha1_fast::{Backend, Sha1};
    ///
    /// // `None` where the CPU lacks SHA-NI; where it has them, `detect`
    /// // picks this backend unless forced otherwise.
    /// if let Some(mut hasher) = Sha1::with_backend(Backend::ShaNi) {
    ///     hasher.update(b"abc");
    ///     assert_eq!(hasher.finalize().to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
    /// }
    /// ```
    ShaNi,
    /// For x86-64 CPUs without the SHA extensions: the message schedule
    /// four words at a time on the vector unit (SSSE3), the rounds in
    /// scalar registers. [`crate::digest_many_into`] on it hashes sixteen
    /// messages at once in the lanes of AVX-512 vectors when the CPU has
    /// AVX-512 F and BW, else eight in those of AVX2 vectors when it has
    /// AVX2.
    /// Listed in [`Backend::ALL`] on x86-64 builds, and on wasm32 builds
    /// with Wasm SIMD enabled (`-C target-feature=+simd128`), where it is
    /// the same method on `simd128` and always available.
    ///
    /// ```
    /// use sha1_fast::{Backend, Sha1};
    ///
    /// // Every x86-64 CPU since Core 2 has SSSE3.
    /// if let Some(mut hasher) = Sha1::with_backend(Backend::SimdSchedule) {
    ///     hasher.update(b"abc");
    ///     assert_eq!(hasher.finalize().to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
    /// }
    /// ```
    SimdSchedule,
    /// The Armv8 SHA-1 instructions (the cryptographic extension: every
    /// Apple silicon chip, AWS Graviton, Ampere, most Cortex-A cores since
    /// the A53), through `core::arch` intrinsics. Available only on aarch64
    /// CPUs that report them; listed in [`Backend::ALL`] only on aarch64
    /// builds.
    ///
    /// ```
    /// use sha1_fast::{Backend, Sha1};
    ///
    /// // `None` where the CPU lacks the SHA-1 instructions; where it has
    /// // them, `detect` picks this backend unless forced otherwise.
    /// if let Some(mut hasher) = Sha1::with_backend(Backend::ArmSha) {
    ///     hasher.update(b"abc");
    ///     assert_eq!(hasher.finalize().to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
    /// }
    /// ```
    ArmSha,
    /// Portable safe Rust: fully unrolled rounds over a 16-word schedule.
    ///
    /// ```
    /// assert!(sha1_fast::Backend::Scalar.is_available());
    /// ```
    Scalar,
}

/// [`Backend::detect`]'s choice: an index into [`Backend::ALL`], or
/// [`UNDECIDED`].
static DETECTED: AtomicU8 = AtomicU8::new(UNDECIDED);
const UNDECIDED: u8 = u8::MAX;

/// The environment variable [`Backend::detect`] reads once (with `std`).
#[cfg(feature = "std")]
const FORCE_VAR: &str = "SHA1_FAST_BACKEND";

impl Backend {
    /// Every backend this build knows, best first, whether or not the
    /// running CPU supports it.
    ///
    /// ```
    /// use sha1_fast::Backend;
    ///
    /// assert!(Backend::ALL.contains(&Backend::Scalar));
    /// assert!(Backend::ALL.contains(&Backend::detect()));
    /// assert_eq!(Backend::ALL.contains(&Backend::ShaNi), cfg!(target_arch = "x86_64"));
    /// assert_eq!(
    ///     Backend::ALL.contains(&Backend::SimdSchedule),
    ///     cfg!(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))
    /// );
    /// assert_eq!(Backend::ALL.contains(&Backend::ArmSha), cfg!(target_arch = "aarch64"));
    /// ```
    pub const ALL: &'static [Backend] = &[
        #[cfg(target_arch = "x86_64")]
        Backend::ShaNi,
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        ))]
        Backend::SimdSchedule,
        #[cfg(target_arch = "aarch64")]
        Backend::ArmSha,
        Backend::Scalar,
    ];

    /// Whether this backend can run here: compiled in, supported by the
    /// CPU, and detection not turned off with
    /// `--cfg sha1_fast_force="none"`. Cheap: CPUID (on aarch64, the OS's
    /// hardware capabilities) is read once and cached.
    ///
    /// ```
    /// let usable: Vec<_> = sha1_fast::Backend::ALL.iter().filter(|b| b.is_available()).collect();
    /// assert!(!usable.is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub fn is_available(self) -> bool {
        Engine::of(self).is_some()
    }

    /// A short lowercase name, stable across releases, for logs, benches,
    /// command lines and `SHA1_FAST_BACKEND`.
    ///
    /// ```
    /// assert_eq!(sha1_fast::Backend::Scalar.name(), "scalar");
    /// assert_eq!(sha1_fast::Backend::ShaNi.name(), "shani");
    /// assert_eq!(sha1_fast::Backend::SimdSchedule.name(), "simd");
    /// assert_eq!(sha1_fast::Backend::ArmSha.name(), "armsha");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Backend::ShaNi => "shani",
            Backend::SimdSchedule => "simd",
            Backend::ArmSha => "armsha",
            Backend::Scalar => "scalar",
        }
    }

    /// The backend of [`Backend::ALL`] called `name`, if this build has
    /// one.
    ///
    /// ```
    /// use sha1_fast::Backend;
    ///
    /// assert_eq!(Backend::from_name("scalar"), Some(Backend::Scalar));
    /// assert_eq!(Backend::from_name("turbo"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.iter().copied().find(|b| b.name() == name)
    }

    /// The backend [`crate::digest()`], [`crate::digest_many_into`],
    /// [`crate::compress`] and [`crate::Sha1::new`] use, decided on the
    /// first call and cached:
    ///
    /// 1. `--cfg sha1_fast_force="NAME"` at build time (`scalar`, `shani`,
    ///    `simd` or `armsha`) forces that backend; `none` turns hardware detection
    ///    off altogether, so only [`Backend::Scalar`] is available;
    /// 2. otherwise, with the `std` feature, the environment variable
    ///    `SHA1_FAST_BACKEND=NAME` (read once) forces that backend, and
    ///    `auto` or an empty value means no forcing;
    /// 3. otherwise the first available entry of [`Backend::ALL`].
    ///
    /// The two forcing switches are test and bench aids, not a
    /// configuration interface: their names follow the backends.
    ///
    /// A forced backend that is unavailable here, or a variable naming a
    /// backend this build does not know, gives [`Backend::Scalar`]:
    /// forcing never runs an instruction the CPU lacks. (A `--cfg` value
    /// other than those five fails the build: the build script checks it.)
    /// Forcing changes only this choice; every
    /// available backend still works through [`crate::Sha1::with_backend`]
    /// and the [`Backend`] methods.
    ///
    /// ```
    /// let backend = sha1_fast::Backend::detect();
    /// assert!(backend.is_available());
    /// assert_eq!(sha1_fast::Sha1::new().backend(), backend);
    /// ```
    #[inline]
    #[must_use]
    pub fn detect() -> Backend {
        match Backend::ALL.get(usize::from(DETECTED.load(Ordering::Relaxed))) {
            Some(&backend) => backend,
            None => Backend::decide(),
        }
    }

    /// [`Backend::detect`]'s first call. Threads racing here all compute
    /// the same answer, so a plain store is enough.
    #[cold]
    fn decide() -> Backend {
        let chosen = Backend::choose(Backend::forced(), Backend::is_available);
        if let Some(index) = Backend::ALL.iter().position(|&b| b == chosen) {
            DETECTED.store(index as u8, Ordering::Relaxed);
        }
        chosen
    }

    /// The rule of [`Backend::decide`], apart from the CPU and the
    /// environment so that a test can give it any CPU: the forced backend
    /// if it is available, else `Scalar`; unforced, the best available.
    fn choose(forced: Option<Backend>, available: impl Fn(Backend) -> bool) -> Backend {
        match forced {
            Some(forced) if available(forced) => forced,
            Some(_) => Backend::Scalar,
            None => Backend::ALL
                .iter()
                .copied()
                .find(|&b| available(b))
                .unwrap_or(Backend::Scalar),
        }
    }

    /// The backend the build or the environment asks for, if any; a
    /// backend this build does not have (`armsha` on x86-64, say) asks
    /// for [`Backend::Scalar`], as an unknown name in the variable does.
    fn forced() -> Option<Backend> {
        if cfg!(sha1_fast_force = "scalar") || cfg!(sha1_fast_force = "none") {
            return Some(Backend::Scalar);
        }
        if cfg!(sha1_fast_force = "shani") {
            return Backend::from_name("shani").or(Some(Backend::Scalar));
        }
        if cfg!(sha1_fast_force = "simd") {
            return Backend::from_name("simd").or(Some(Backend::Scalar));
        }
        if cfg!(sha1_fast_force = "armsha") {
            return Backend::from_name("armsha").or(Some(Backend::Scalar));
        }
        #[cfg(feature = "std")]
        return Backend::forced_by_variable(std::env::var_os(FORCE_VAR).as_deref());
        #[cfg(not(feature = "std"))]
        None
    }

    /// What a value of `SHA1_FAST_BACKEND` asks for: nothing when unset,
    /// empty or `auto`; else the backend it names, with
    /// [`Backend::Scalar`] standing in for a name this build does not know
    /// (or that is not UTF-8), so a typo never picks a hardware backend.
    #[cfg(feature = "std")]
    fn forced_by_variable(value: Option<&std::ffi::OsStr>) -> Option<Backend> {
        match value?.to_str() {
            Some("" | "auto") => None,
            Some(name) => Some(Backend::from_name(name).unwrap_or(Backend::Scalar)),
            None => Some(Backend::Scalar),
        }
    }

    /// This backend's engine, for the by-label calls below, whose docs
    /// promise a panic where it cannot run.
    #[inline]
    #[track_caller]
    fn engine_or_panic(self) -> Engine {
        match Engine::of(self) {
            Some(engine) => engine,
            None => {
                panic!("sha-1 backend `{self}` is not available here; check Backend::is_available")
            }
        }
    }

    /// Hashes `blocks` into `state` with this backend; see
    /// [`crate::compress`] for the contract.
    ///
    /// # Panics
    ///
    /// If the backend is not available ([`Backend::is_available`]).
    ///
    /// ```
    /// use sha1_fast::Backend;
    ///
    /// let blocks = [[0u8; 64]; 4];
    /// let mut expected = sha1_fast::INITIAL_STATE;
    /// Backend::Scalar.compress(&mut expected, &blocks); // always available
    /// for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
    ///     let mut state = sha1_fast::INITIAL_STATE;
    ///     backend.compress(&mut state, &blocks);
    ///     assert_eq!(state, expected, "{backend}");
    /// }
    /// ```
    #[inline]
    #[track_caller]
    pub fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        self.engine_or_panic().compress(state, blocks);
    }

    /// SHA-1 of `data` with this backend: [`crate::digest()`] without the
    /// detection.
    ///
    /// # Panics
    ///
    /// If the backend is not available ([`Backend::is_available`]).
    ///
    /// ```
    /// use sha1_fast::Backend;
    ///
    /// // FIPS 180-2, appendix A.1
    /// let abc = "a9993e364706816aba3e25717850c26c9cd0d89d";
    /// for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
    ///     assert_eq!(backend.digest(b"abc").to_string(), abc, "{backend}");
    /// }
    /// ```
    #[inline]
    #[track_caller]
    #[must_use]
    pub fn digest(self, data: &[u8]) -> Digest {
        self.engine_or_panic().digest(data)
    }

    /// [`crate::digest_many_into`] with this backend.
    ///
    /// # Errors
    ///
    /// [`LengthMismatch`] if `out` does not have exactly one slot per
    /// message; `out` is then left as it was.
    ///
    /// # Panics
    ///
    /// If the backend is not available ([`Backend::is_available`]).
    ///
    /// ```
    /// use sha1_fast::{Backend, Digest};
    ///
    /// let messages: [&[u8]; 3] = [b"a", b"bc", &[7; 1000]];
    /// for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
    ///     let mut out = [Digest::from_bytes([0; 20]); 3];
    ///     backend.digest_many_into(&messages, &mut out)?;
    ///     assert_eq!(out[2], sha1_fast::digest(&[7; 1000]), "{backend}");
    /// }
    /// # Ok::<(), sha1_fast::LengthMismatch>(())
    /// ```
    #[inline]
    #[track_caller]
    pub fn digest_many_into(
        self,
        messages: &[&[u8]],
        out: &mut [Digest],
    ) -> Result<(), LengthMismatch> {
        let engine = self.engine_or_panic();
        if messages.len() != out.len() {
            return Err(LengthMismatch {
                messages: messages.len(),
                digests: out.len(),
            });
        }
        engine.digest_many(messages, out);
        Ok(())
    }
}

/// Writes [`Backend::name`].
///
/// ```
/// assert_eq!(sha1_fast::Backend::Scalar.to_string(), "scalar");
/// ```
impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Backend;

    /// Forcing never picks a backend the CPU lacks, whatever this CPU has.
    #[test]
    fn choose_falls_back_to_scalar_and_otherwise_takes_the_best() {
        let only_scalar = |b: Backend| b == Backend::Scalar;
        let all = |_: Backend| true;
        for &backend in Backend::ALL {
            assert_eq!(Backend::choose(Some(backend), only_scalar), Backend::Scalar);
            assert_eq!(Backend::choose(Some(backend), all), backend);
            // Scalar always exists; any other forced backend the CPU
            // lacks gives Scalar, not the best one it has.
            let all_but_this = |b: Backend| b != backend || b == Backend::Scalar;
            assert_eq!(
                Backend::choose(Some(backend), all_but_this),
                Backend::Scalar
            );
        }
        assert_eq!(Backend::choose(None, all), Backend::ALL[0]);
        assert_eq!(Backend::choose(None, only_scalar), Backend::Scalar);
        let no_best = |b: Backend| b != Backend::ALL[0];
        assert_eq!(
            Backend::choose(None, no_best),
            *Backend::ALL.get(1).unwrap_or(&Backend::Scalar)
        );
    }

    /// The environment variable's rule, apart from the environment (CI sets
    /// it only to real names, so a test run cannot reach the others).
    #[cfg(feature = "std")]
    #[test]
    fn the_variable_forces_by_name_and_unknown_names_give_scalar() {
        use std::ffi::OsStr;
        let forced = |value: &str| Backend::forced_by_variable(Some(OsStr::new(value)));
        assert_eq!(Backend::forced_by_variable(None), None);
        assert_eq!(forced(""), None);
        assert_eq!(forced("auto"), None);
        for &backend in Backend::ALL {
            assert_eq!(forced(backend.name()), Some(backend));
        }
        // Not a name (nor a differently cased one): Scalar, never detection.
        assert_eq!(forced("sha-ni"), Some(Backend::Scalar));
        assert_eq!(forced("AUTO"), Some(Backend::Scalar));
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let not_utf8 = OsStr::from_bytes(b"sha\xffni");
            assert_eq!(
                Backend::forced_by_variable(Some(not_utf8)),
                Some(Backend::Scalar)
            );
        }
    }

    /// `detect` decides once and then answers from the cache.
    #[test]
    fn detect_caches_its_choice() {
        use core::sync::atomic::Ordering;
        let chosen = Backend::detect();
        let cached = usize::from(super::DETECTED.load(Ordering::Relaxed));
        assert_eq!(Backend::ALL.get(cached), Some(&chosen));
    }
}
