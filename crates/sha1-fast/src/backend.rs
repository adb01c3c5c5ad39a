//! The list of compression backends and the dispatch between them.
//!
//! Adding a backend means: a variant here, an entry in [`Backend::ALL`]
//! (ordered by preference, so [`Backend::detect`] picks the first available
//! one), an arm in each `match`, and its own module. Nothing else in the
//! crate names a backend.

use core::fmt;

/// A SHA-1 compression implementation.
///
/// Every backend computes the same function; they differ in speed and in
/// what the CPU must support. [`Backend::Scalar`] exists on every target.
/// New variants may be added in minor releases (hardware backends are
/// planned), so `match`es need a wildcard arm.
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
    /// Portable safe Rust: fully unrolled rounds over a 16-word schedule.
    ///
    /// ```
    /// assert!(sha1_fast::Backend::Scalar.is_available());
    /// ```
    Scalar,
}

impl Backend {
    /// Every backend this build knows, best first, whether or not the
    /// running CPU supports it.
    ///
    /// ```
    /// use sha1_fast::Backend;
    ///
    /// assert!(Backend::ALL.contains(&Backend::Scalar));
    /// assert!(Backend::ALL.contains(&Backend::detect()));
    /// ```
    pub const ALL: &'static [Backend] = &[Backend::Scalar];

    /// Whether this backend can run here (compiled in and supported by the
    /// CPU).
    ///
    /// ```
    /// let usable: Vec<_> = sha1_fast::Backend::ALL.iter().filter(|b| b.is_available()).collect();
    /// assert!(!usable.is_empty());
    /// ```
    #[inline]
    pub fn is_available(self) -> bool {
        match self {
            Backend::Scalar => true,
        }
    }

    /// A short lowercase name, stable across releases, for logs, benches
    /// and command lines.
    ///
    /// ```
    /// assert_eq!(sha1_fast::Backend::Scalar.name(), "scalar");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
        }
    }

    /// The backend [`crate::compress`] and [`crate::Sha1::new`] use: the
    /// first available entry of [`Backend::ALL`].
    ///
    /// Building with `RUSTFLAGS='--cfg sha1_fast_force="scalar"'` pins it
    /// to [`Backend::Scalar`].
    ///
    /// ```
    /// let backend = sha1_fast::Backend::detect();
    /// assert!(backend.is_available());
    /// ```
    #[inline]
    pub fn detect() -> Backend {
        if cfg!(sha1_fast_force = "scalar") {
            return Backend::Scalar;
        }
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.is_available())
            .unwrap_or(Backend::Scalar)
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
    /// let mut expected = sha1_fast::reference::H0;
    /// sha1_fast::reference::compress(&mut expected, &blocks);
    /// for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
    ///     let mut state = sha1_fast::reference::H0;
    ///     backend.compress(&mut state, &blocks);
    ///     assert_eq!(state, expected, "{backend}");
    /// }
    /// ```
    #[inline]
    pub fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        assert!(
            self.is_available(),
            "SHA-1 backend `{self}` is not available on this CPU"
        );
        match self {
            Backend::Scalar => crate::scalar::compress(state, blocks),
        }
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
