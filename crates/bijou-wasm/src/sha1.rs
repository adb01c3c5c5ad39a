//! The SHA-1 exports: one-shot [`sha1`] and [`sha1_checked`] (with collision
//! detection), and their incremental forms [`Sha1Hasher`] and
//! [`CheckedHasher`]. On wasm32, `sha1_fast` runs its SIMD-schedule
//! kernel in a build with `simd128`, else its portable scalar core.

use wasm_bindgen::prelude::wasm_bindgen;

/// SHA-1 of `data`: 20 bytes.
#[wasm_bindgen]
pub fn sha1(data: &[u8]) -> Vec<u8> {
    sha1_fast::digest(data).as_ref().to_vec()
}

/// SHA-1 of `data` with collision detection (`sha1_fast::checked`): the
/// digest, or the [`CollisionFound`] that JavaScript turns into a
/// `Sha1CollisionError`.
#[wasm_bindgen]
pub fn sha1_checked(data: &[u8]) -> Result<Vec<u8>, CollisionFound> {
    match sha1_fast::checked::digest(data) {
        Ok(digest) => Ok(digest.as_ref().to_vec()),
        Err(collision) => Err(CollisionFound(collision)),
    }
}

/// A collision attack detected by [`sha1_checked`].
#[wasm_bindgen]
pub struct CollisionFound(sha1_fast::checked::Collision);

#[wasm_bindgen]
impl CollisionFound {
    /// The Rust error's message.
    #[wasm_bindgen(getter)]
    pub fn message(&self) -> String {
        self.0.to_string()
    }

    /// The plain SHA-1 of the input (shared with its colliding twin), hex.
    #[wasm_bindgen(getter)]
    pub fn digest(&self) -> String {
        self.0.digest().to_string()
    }

    /// The digest collision detection substitutes (not shared), hex.
    #[wasm_bindgen(getter)]
    pub fn mitigated(&self) -> String {
        self.0.mitigated().to_string()
    }
}

/// An incremental SHA-1, wrapped by the JavaScript `Sha1` class.
#[wasm_bindgen]
#[derive(Clone, Default)]
pub struct Sha1Hasher(sha1_fast::Sha1);

#[wasm_bindgen]
impl Sha1Hasher {
    /// A hasher that has seen nothing.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Sha1Hasher {
        Sha1Hasher::default()
    }

    /// Hashes `data` after everything before it.
    pub fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    /// SHA-1 of everything so far. The hasher is left as it was, so it can
    /// take more data and give a digest again.
    pub fn digest(&self) -> Vec<u8> {
        self.0.clone().finalize().as_ref().to_vec()
    }
}

/// An incremental SHA-1 with collision detection, for inputs the
/// JavaScript layer feeds in pieces.
#[wasm_bindgen]
#[derive(Default)]
pub struct CheckedHasher(sha1_fast::checked::Sha1);

#[wasm_bindgen]
impl CheckedHasher {
    /// A hasher that has seen nothing.
    #[wasm_bindgen(constructor)]
    pub fn new() -> CheckedHasher {
        CheckedHasher::default()
    }

    /// Hashes `data` after everything before it.
    pub fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    /// SHA-1 of everything hashed, or the collision attack found in it.
    pub fn finish(self) -> Result<Vec<u8>, CollisionFound> {
        match self.0.finalize() {
            Ok(digest) => Ok(digest.as_ref().to_vec()),
            Err(collision) => Err(CollisionFound(collision)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_matches_one_shot_and_digest_keeps_state() {
        let mut hasher = Sha1Hasher::new();
        hasher.update(b"a");
        assert_eq!(hasher.digest(), sha1(b"a"));
        hasher.update(b"bc");
        assert_eq!(hasher.digest(), sha1(b"abc"));
        let abc = sha1_fast::Digest::try_from(sha1(b"abc").as_slice()).unwrap();
        assert_eq!(abc.to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(sha1_checked(b"abc").ok(), Some(sha1(b"abc")));
    }

    #[test]
    fn a_collision_attack_is_an_error_with_both_digests() {
        let path = testkit::vector_path("sha1-collisions/sha-mbles-1.bin");
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let Err(found) = sha1_checked(&data) else {
            panic!("sha-mbles-1.bin was not flagged");
        };
        // The folder's README and sha1dcsum (via sha1-fast's own tests).
        assert_eq!(found.digest(), "8ac60ba76f1999a1ab70223f225aefdc78d4ddc0");
        assert_eq!(
            found.mitigated(),
            "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14"
        );
        assert!(found.message().contains(&found.mitigated()));

        let mut pieces = CheckedHasher::new();
        for piece in data.chunks(100) {
            pieces.update(piece);
        }
        let Err(in_pieces) = pieces.finish() else {
            panic!("sha-mbles-1.bin fed in pieces was not flagged");
        };
        assert_eq!(in_pieces.mitigated(), found.mitigated());
    }
}
