//! The filter's relations packed as 34 vectors of eight consecutive words
//! (lane ℓ tests W\[near + ℓ\] against the shifted W\[near + ℓ + distance\]),
//! so that one block is filtered from its own schedule
//! (`arch/x86_64/avx2/words.rs`).

use super::sliced::from_mask;
use super::ubc::{CONDITIONS, greedy_order};

/// Relations (words) per vector.
pub(crate) const LANES: usize = 8;

/// One vector of relations (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct WordVector {
    /// The near word of lane 0.
    pub(crate) near: usize,
    /// How far past each lane's near word its far word is.
    pub(crate) distance: usize,
    /// Whether the far words shift left (bit j below bit i), not right.
    pub(crate) left: bool,
    /// Each lane's shift.
    pub(crate) shift: [u32; LANES],
    /// The bits each lane tests (zero in an unused lane).
    pub(crate) bits: [u32; LANES],
    /// The values those bits must have.
    pub(crate) values: [u32; LANES],
    /// The disturbance vectors a failure in each lane rules out.
    pub(crate) dvs: [u32; LANES],
}

const EMPTY: WordVector = WordVector {
    near: 0,
    distance: 0,
    left: false,
    shift: [0; LANES],
    bits: [0; LANES],
    values: [0; LANES],
    dvs: [0; LANES],
};

/// The packed vectors, and how many there are.
const PACKED: ([WordVector; CONDITIONS.len()], usize) = {
    let mut vectors = [EMPTY; CONDITIONS.len()];
    let mut placed = [false; CONDITIONS.len()];
    let mut n = 0;
    let mut first = 0;
    while first < CONDITIONS.len() {
        if placed[first] {
            first += 1;
            continue;
        }
        // The first relation left (they are in order of a) opens a vector;
        // the rest of its kind within eight words join it.
        let lead = &CONDITIONS[first];
        let mut v = WordVector {
            near: lead.a as usize,
            distance: (lead.b - lead.a) as usize,
            left: lead.j < lead.i,
            ..EMPTY
        };
        let mut k = first;
        while k < CONDITIONS.len() {
            let c = &CONDITIONS[k];
            let lane = c.a as usize - v.near;
            let same_kind = (c.b - c.a) as usize == v.distance && (c.j < c.i) == v.left;
            if !placed[k] && same_kind && lane < LANES {
                let shift = c.j.abs_diff(c.i) as u32;
                let dvs = from_mask(c.dvs);
                let bit = 1 << c.i;
                let joins = v.bits[lane] == 0
                    || (v.shift[lane] == shift && v.dvs[lane] == dvs && v.bits[lane] & bit == 0);
                if joins {
                    v.shift[lane] = shift;
                    v.bits[lane] |= bit;
                    v.values[lane] |= (c.value as u32) << c.i;
                    v.dvs[lane] = dvs;
                    placed[k] = true;
                }
            }
            k += 1;
        }
        vectors[n] = v;
        n += 1;
    }
    (vectors, n)
};

/// How many vectors there are.
pub(crate) const VECTOR_COUNT: usize = PACKED.1;

/// The word vectors in [`super::ubc::greedy_order`] (as the portable
/// checks run): after the first [`PREFIX`], about one random block in ten
/// has a disturbance vector left; after all of them, one in twenty.
pub(crate) const VECTORS: [WordVector; VECTOR_COUNT] = {
    // Relations of each disturbance vector (by sliced bit) per word vector.
    let mut counts = [[0u32; 64]; VECTOR_COUNT];
    let mut v = 0;
    while v < VECTOR_COUNT {
        let mut lane = 0;
        while lane < LANES {
            let mut d = 0;
            while d < 32 {
                if PACKED.0[v].dvs[lane] >> d & 1 == 1 {
                    counts[v][d] += PACKED.0[v].bits[lane].count_ones();
                }
                d += 1;
            }
            lane += 1;
        }
        v += 1;
    }
    let order = greedy_order(&counts);
    let mut ordered = [EMPTY; VECTOR_COUNT];
    let mut n = 0;
    while n < VECTOR_COUNT {
        ordered[n] = PACKED.0[order[n]];
        n += 1;
    }
    ordered
};

/// How many of [`VECTORS`] run on every block; the rest only on a block
/// that leaves a vector standing after them.
pub(crate) const PREFIX: usize = 16;

/// The highest word any lane reads, used or not: the vector forms load
/// whole runs of eight.
pub(crate) const LAST_WORD: usize = {
    let mut last = 0;
    let mut v = 0;
    while v < VECTOR_COUNT {
        let end = VECTORS[v].near + VECTORS[v].distance + LANES - 1;
        if end > last {
            last = end;
        }
        v += 1;
    }
    last
};

const _: () = assert!(LAST_WORD < 80, "every lane reads a word of the schedule");

/// The disturbance vectors that `vectors` rule out for the expanded
/// message `w` (as [`super::sliced`] bits), one lane at a time.
#[cfg(test)]
pub(crate) fn failures(w: &[u32; 80], vectors: &[WordVector]) -> u32 {
    let mut failed = 0;
    for v in vectors {
        for lane in 0..LANES {
            let far = w[v.near + lane + v.distance];
            let far = if v.left {
                far << v.shift[lane]
            } else {
                far >> v.shift[lane]
            };
            if (w[v.near + lane] ^ far) & v.bits[lane] != v.values[lane] {
                failed |= v.dvs[lane];
            }
        }
    }
    failed
}

#[cfg(test)]
mod tests {
    use super::{PREFIX, VECTORS, failures};
    use crate::checked::sliced::{ALL, to_mask};
    use crate::checked::ubc::CONDITIONS;
    use crate::checked::ubc::dv_mask_reference;

    /// Every relation is in exactly one lane, with its bit, value and
    /// vectors.
    #[test]
    fn every_relation_is_packed_once() {
        let mut lanes = 0;
        for c in &CONDITIONS {
            let holders = VECTORS
                .iter()
                .flat_map(|v| (0..8).map(move |lane| (v, lane)))
                .filter(|(v, lane)| {
                    v.near + lane == usize::from(c.a)
                        && v.distance == usize::from(c.b - c.a)
                        && v.bits[*lane] >> c.i & 1 == 1
                        && v.shift[*lane] == u32::from(c.j.abs_diff(c.i))
                        && v.left == (c.j < c.i)
                        && v.values[*lane] >> c.i & 1 == u32::from(c.value)
                        && to_mask(v.dvs[*lane]) == c.dvs
                })
                .count();
            assert_eq!(holders, 1);
        }
        for v in &VECTORS {
            lanes += v.bits.iter().map(|b| b.count_ones()).sum::<u32>();
        }
        assert_eq!(lanes as usize, CONDITIONS.len());
    }

    /// The packed table against the relations one at a time, on windows
    /// made to pass a vector and on random ones.
    #[test]
    fn the_table_matches_the_reference() {
        for w in crate::checked::ubc::test_words(4000) {
            assert_eq!(
                to_mask(ALL & !failures(&w, &VECTORS)),
                dv_mask_reference(&w)
            );
        }
    }

    /// The prefix leaves few random blocks for the rest.
    #[test]
    fn the_prefix_rules_out_most_blocks() {
        let mut state = 0x0123_4567_89AB_CDEFu64;
        let (mut after_prefix, mut after_all) = (0, 0);
        let n = 20_000;
        for _ in 0..n {
            let w = core::array::from_fn(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u32
            });
            after_prefix += u32::from(ALL & !failures(&w, &VECTORS[..PREFIX]) != 0);
            after_all += u32::from(ALL & !failures(&w, &VECTORS) != 0);
        }
        // 2,046 and 890 when written.
        assert!(after_prefix < n / 8, "{after_prefix} of {n}");
        assert!(after_all < n / 20, "{after_all} of {n}");
    }
}
