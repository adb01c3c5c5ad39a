//! The filter's tables for its bit-sliced forms, one block per 32-bit
//! lane: planes hold W\[33..=64\] ([`START`]), checks rotate modulo 32, and
//! II(46,2) takes the bit below its family so that the vectors fit 32 bits
//! (`docs/sha1-checked.md`, "The filter's forms").

use super::dv::DVS;
pub(crate) use super::ubc::SHAPE_COUNT;
use super::ubc::{ALL_DVS, Check, PLANE_BITS, SHAPES, checks, plane_of};

/// The first word of the sliced window: bit t − START of a plane is
/// W\[t\], for W\[33..=64\].
pub(crate) const START: usize = 33;

/// The sliced bit of a vector whose [`super::dv::Dv::mask_bit`] is
/// `mask_bit`: the 64-bit layout's bits 31–33 (II(49..51,2)) move down by
/// two, next to II(46,2) at 28.
const fn sliced_bit(mask_bit: u64) -> u32 {
    let bit = mask_bit.trailing_zeros();
    if bit >= 31 { bit - 2 } else { bit }
}

/// The 64-bit mask ([`super::dv::Dv::mask_bit`]s) of a sliced mask.
pub(crate) const fn to_mask(sliced: u32) -> u64 {
    (sliced & 0x1FFF_FFFF) as u64 | ((sliced >> 29) as u64) << 31
}

/// Every vector's sliced bit.
pub(crate) const ALL: u32 = {
    let mut all = 0;
    let mut bit = 0;
    while bit < 64 {
        if ALL_DVS & 1 << bit != 0 {
            all |= 1 << sliced_bit(1 << bit);
        }
        bit += 1;
    }
    all
};

/// The sliced mask of a 64-bit mask ([`super::dv::Dv::mask_bit`]s).
pub(crate) const fn from_mask(mask: u64) -> u32 {
    (mask & 0x1FFF_FFFF) as u32 | ((mask >> 31) as u32) << 29
}

const _: () = assert!(
    to_mask(ALL) == ALL_DVS && from_mask(ALL_DVS) == ALL,
    "the sliced bits map back"
);

/// A shape in the sliced form: the planes of bits i and j, the distance,
/// and all ones where the relation's value is 1.
#[derive(Clone, Copy)]
pub(crate) struct SlicedShape {
    pub(crate) plane_i: usize,
    pub(crate) plane_j: usize,
    pub(crate) distance: u32,
    pub(crate) flip: u32,
}

pub(crate) const SHAPE_TABLE: [SlicedShape; SHAPE_COUNT] = {
    let mut t = [SlicedShape {
        plane_i: 0,
        plane_j: 0,
        distance: 0,
        flip: 0,
    }; SHAPE_COUNT];
    let mut s = 0;
    while s < SHAPE_COUNT {
        let shape = SHAPES.0[s];
        t[s] = SlicedShape {
            plane_i: plane_of(shape.i),
            plane_j: plane_of(shape.j),
            distance: shape.distance as u32,
            flip: if shape.value == 1 { u32::MAX } else { 0 },
        };
        s += 1;
    }
    t
};

/// A check: the failures of shape `shape`, rotated right by `rotate`,
/// fail the vectors in `dvs` (sliced bits).
#[derive(Clone, Copy)]
pub(crate) struct SlicedCheck {
    pub(crate) shape: usize,
    pub(crate) rotate: u32,
    pub(crate) dvs: u32,
}

/// The checks of the sliced layout.
const CHECKS: ([Check; 128], usize) = {
    let mut bit_of = [0; 32];
    let mut d = 0;
    while d < DVS.len() {
        bit_of[d] = sliced_bit(DVS[d].mask_bit());
        d += 1;
    }
    checks(START as u32, 32, &bit_of)
};

/// How many checks there are.
pub(crate) const CHECK_COUNT: usize = CHECKS.1;

/// The checks.
pub(crate) const CHECK_TABLE: [SlicedCheck; CHECK_COUNT] = {
    let mut t = [SlicedCheck {
        shape: 0,
        rotate: 0,
        dvs: 0,
    }; CHECK_COUNT];
    let mut c = 0;
    while c < CHECK_COUNT {
        let Check { shape, rotate, dvs } = CHECKS.0[c];
        t[c] = SlicedCheck {
            shape,
            rotate,
            dvs: dvs as u32,
        };
        c += 1;
    }
    t
};

/// [`CHECK_TABLE`] sorted by shape (`by_shape`) or by rotation, stably,
/// so that each group keeps the table's order.
pub(crate) const fn sorted_checks(by_shape: bool) -> [SlicedCheck; CHECK_COUNT] {
    const fn key(check: &SlicedCheck, by_shape: bool) -> usize {
        if by_shape {
            check.shape
        } else {
            check.rotate as usize
        }
    }
    let mut t = CHECK_TABLE;
    let mut i = 1;
    while i < CHECK_COUNT {
        let mut j = i;
        while j > 0 && key(&t[j - 1], by_shape) > key(&t[j], by_shape) {
            (t[j - 1], t[j]) = (t[j], t[j - 1]);
            j -= 1;
        }
        i += 1;
    }
    t
}

/// [`CHECK_TABLE`] grouped by rotation, in increasing order, each
/// check's vectors rotated left by its rotation: since `ror(f, r) & dvs`
/// is `ror(f & rol(dvs, r), r)`, the checks of one rotation can gather
/// their failures first and rotate them once, one rotation a group
/// rather than one a check.
pub(crate) const CHECKS_BY_ROTATION: [SlicedCheck; CHECK_COUNT] = {
    let mut t = sorted_checks(false);
    let mut c = 0;
    while c < CHECK_COUNT {
        t[c].dvs = t[c].dvs.rotate_left(t[c].rotate);
        c += 1;
    }
    t
};

/// Whether check `c` of [`CHECKS_BY_ROTATION`] starts its rotation's
/// group (a pass may be split between groups, not inside one).
pub(crate) const fn starts_rotation(c: usize) -> bool {
    c == 0 || c == CHECK_COUNT || CHECKS_BY_ROTATION[c - 1].rotate != CHECKS_BY_ROTATION[c].rotate
}

/// The sliced shapes and checks laid out for eight `u64` lanes, each
/// holding one 32-bit lane of two blocks (`crate::arch::x86_64`'s paired
/// AVX-512 form): the shapes in three vectors, the checks sorted by shape
/// in ten, each of which reads at most two adjacent shape vectors. Every
/// per-lane value is in both halves of its `u64`.
#[cfg(target_arch = "x86_64")]
pub(crate) struct PairTables {
    /// Per plane lane of the two unpacked rows (see `plane_lane`): the
    /// left shift that brings W\[64\]'s bit of the plane to bit 31.
    pub(crate) w64_shift: [[u64; 8]; 2],
    /// Per shape: the lanes (0–15 over the two plane vectors) of the
    /// planes of bits i and j, the distance, all ones where the
    /// relation's value is 1.
    pub(crate) plane_i: [[u64; 8]; 3],
    pub(crate) plane_j: [[u64; 8]; 3],
    pub(crate) distance: [[u64; 8]; 3],
    pub(crate) flip: [[u64; 8]; 3],
    /// Per vector of checks: the first of its two shape vectors, then per
    /// lane the shape's index in those two (0–15), the rotation, the
    /// vectors it fails.
    pub(crate) check_base: [usize; PAIR_CHECK_VECTORS],
    pub(crate) check_shape: [[u64; 8]; PAIR_CHECK_VECTORS],
    pub(crate) check_rotate: [[u64; 8]; PAIR_CHECK_VECTORS],
    pub(crate) check_dvs: [[u64; 8]; PAIR_CHECK_VECTORS],
}

/// Vectors of eight checks.
#[cfg(target_arch = "x86_64")]
pub(crate) const PAIR_CHECK_VECTORS: usize = CHECK_COUNT.div_ceil(8);

/// Where plane p sits after two rows (dword p = plane p) are interleaved
/// by `unpacklo`/`unpackhi` of dwords: lanes 0–7 of the first vector, 8–15
/// of the second.
#[cfg(target_arch = "x86_64")]
pub(crate) const fn plane_lane(p: usize) -> usize {
    let (quad, r) = (p / 4, p % 4);
    if r < 2 {
        2 * quad + r
    } else {
        8 + 2 * quad + r - 2
    }
}

/// A value in both halves of a `u64`.
#[cfg(target_arch = "x86_64")]
pub(crate) const fn both(v: u32) -> u64 {
    v as u64 | (v as u64) << 32
}

#[cfg(target_arch = "x86_64")]
pub(crate) static PAIR_TABLES: PairTables = {
    let mut t = PairTables {
        w64_shift: [[0; 8]; 2],
        plane_i: [[0; 8]; 3],
        plane_j: [[0; 8]; 3],
        distance: [[0; 8]; 3],
        flip: [[0; 8]; 3],
        check_base: [0; PAIR_CHECK_VECTORS],
        check_shape: [[0; 8]; PAIR_CHECK_VECTORS],
        check_rotate: [[0; 8]; PAIR_CHECK_VECTORS],
        check_dvs: [[0; 8]; PAIR_CHECK_VECTORS],
    };
    let mut p = 0;
    while p < PLANE_BITS.len() {
        let lane = plane_lane(p);
        t.w64_shift[lane / 8][lane % 8] = both(31 - PLANE_BITS[p]);
        p += 1;
    }
    let mut s = 0;
    while s < SHAPE_COUNT {
        let shape = SHAPE_TABLE[s];
        t.plane_i[s / 8][s % 8] = plane_lane(shape.plane_i) as u64;
        t.plane_j[s / 8][s % 8] = plane_lane(shape.plane_j) as u64;
        t.distance[s / 8][s % 8] = both(shape.distance);
        t.flip[s / 8][s % 8] = both(shape.flip);
        s += 1;
    }
    let mut n = 0;
    let mut shape = 0;
    while shape < SHAPE_COUNT {
        let mut c = 0;
        while c < CHECK_COUNT {
            let check = CHECK_TABLE[c];
            if check.shape == shape {
                let (v, lane) = (n / 8, n % 8);
                if lane == 0 {
                    t.check_base[v] = shape / 8;
                }
                let index = shape - 8 * t.check_base[v];
                assert!(index < 16, "eight checks span at most two shape vectors");
                t.check_shape[v][lane] = index as u64;
                t.check_rotate[v][lane] = both(check.rotate);
                t.check_dvs[v][lane] = both(check.dvs);
                n += 1;
            }
            c += 1;
        }
        shape += 1;
    }
    t
};

/// The sliced planes of an expanded message, one at a time: plane p, bit
/// t − [`START`], is bit `PLANE_BITS[p]` of W\[t\].
#[cfg(test)]
pub(crate) fn planes(w: &[u32; 80]) -> [u32; 11] {
    PLANE_BITS.map(|bit| (0..32).fold(0, |plane, t| plane | (w[START + t] >> bit & 1) << t))
}

/// Each shape's failures from sliced planes, as the vector forms make
/// them.
#[cfg(test)]
fn failures(planes: &[u32; 11]) -> [u32; SHAPE_COUNT] {
    SHAPE_TABLE.map(|s| planes[s.plane_i] ^ (planes[s.plane_j] >> s.distance) ^ s.flip)
}

/// The vectors whose relations all hold, as [`super::dv::Dv::mask_bit`]s,
/// from sliced planes, evaluated as the vector form does.
#[cfg(test)]
pub(crate) fn dv_mask(planes: &[u32; 11]) -> u64 {
    let failures = failures(planes);
    let failed = CHECK_TABLE.iter().fold(0, |failed, c| {
        failed | failures[c.shape].rotate_right(c.rotate) & c.dvs
    });
    to_mask(ALL & !failed)
}

/// [`dv_mask`] evaluated group by group from [`CHECKS_BY_ROTATION`], as
/// the AVX-512 form does.
#[cfg(test)]
pub(crate) fn dv_mask_by_rotation(planes: &[u32; 11]) -> u64 {
    let failures = failures(planes);
    let (mut failed, mut group) = (0, 0);
    for (c, check) in CHECKS_BY_ROTATION.iter().enumerate() {
        group = if starts_rotation(c) { 0 } else { group } | failures[check.shape] & check.dvs;
        if starts_rotation(c + 1) {
            failed |= group.rotate_right(check.rotate);
        }
    }
    to_mask(ALL & !failed)
}

#[cfg(test)]
mod tests {
    use super::{dv_mask, dv_mask_by_rotation, planes};
    use crate::checked::ubc::{dv_mask_reference, test_words};

    #[test]
    fn sliced_tables_equal_the_reference() {
        for (round, w) in test_words(20_000).enumerate() {
            let want = dv_mask_reference(&w);
            assert_eq!(dv_mask(&planes(&w)), want, "round {round}");
            assert_eq!(dv_mask_by_rotation(&planes(&w)), want, "round {round}");
        }
    }
}
