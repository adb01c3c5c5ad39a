//! The order of map keys, as both directions check it: increasing memcmp
//! order of their encodings.

use core::cmp::Ordering;

/// The memcmp order of two encoded keys, without a call to `memcmp` for
/// short ones: integer keys and short strings, whose encodings mostly
/// differ in their first byte (a varint's tag, a string's length), are
/// compared by a byte loop.
#[inline]
pub(crate) fn compare_keys(a: &[u8], b: &[u8]) -> Ordering {
    if a.len() > 16 || b.len() > 16 {
        return a.cmp(b);
    }
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::compare_keys;

    /// Every pair of keys up to 18 bytes long over a small alphabet (so
    /// that prefixes and equal bytes are common) against slice order.
    #[test]
    fn compare_keys_is_slice_order() {
        let keys: alloc::vec::Vec<alloc::vec::Vec<u8>> = (0..=18usize)
            .flat_map(|len| {
                (0..8u32).map(move |seed| {
                    (0..len)
                        .map(|i| [0u8, 1, 0xFF][(seed as usize + i * 7 + len) % 3])
                        .collect()
                })
            })
            .collect();
        for a in &keys {
            for b in &keys {
                assert_eq!(compare_keys(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }
}
