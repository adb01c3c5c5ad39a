//! The SHA-1 exports: one-shot [`sha1`] and the incremental [`Sha1Hasher`].
//! On wasm32, `sha1_fast` runs its portable scalar core.

use wasm_bindgen::prelude::wasm_bindgen;

/// SHA-1 of `data`: 20 bytes.
#[wasm_bindgen]
pub fn sha1(data: &[u8]) -> Vec<u8> {
    sha1_fast::digest(data).as_ref().to_vec()
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
    }
}
