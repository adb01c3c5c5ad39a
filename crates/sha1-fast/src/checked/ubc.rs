//! The unavoidable-bit-condition filter: which disturbance vectors a
//! block's expanded message leaves possible. [`CONDITIONS`] holds the 156
//! relations of sha1collisiondetection's `ubc_check`; `dv_mask_from_planes`
//! evaluates them as bit planes, 22 shapes and 72 rotate-and-mask checks,
//! all derived from the table at compile time (`docs/sha1-checked.md`,
//! "The filter").

use super::dv::{DVS, Dv, one, two};

/// The first expanded-message word the filter reads.
pub(crate) const WINDOW_START: usize = 32;
/// How many words from [`WINDOW_START`] the filter reads (W\[32..68\]: the
/// relations read W\[35..=64\], and planes start on a multiple of four).
#[cfg(test)]
pub(crate) const WINDOW_LEN: usize = 36;

/// The words [`dv_mask`] reads: W\[32..68\].
#[cfg(test)]
pub(crate) type Window = [u32; WINDOW_LEN];

/// One relation: bit `i` of W\[a\] xor bit `j` of W\[b\] equals `value`
/// for every vector in `dvs` (a mask of [`Dv::mask_bit`]s).
#[derive(Clone, Copy)]
pub(super) struct Condition {
    pub(super) a: u8,
    pub(super) i: u8,
    pub(super) b: u8,
    pub(super) j: u8,
    pub(super) value: u8,
    pub(super) dvs: u64,
}

const fn c(a: u8, i: u8, b: u8, j: u8, value: u8, dvs: &[Dv]) -> Condition {
    let mut mask = 0;
    let mut k = 0;
    while k < dvs.len() {
        mask |= dvs[k].mask_bit();
        k += 1;
    }
    Condition {
        a,
        i,
        b,
        j,
        value,
        dvs: mask,
    }
}

/// The relations, from sha1collisiondetection's `ubc_check` (MIT licence),
/// as data: W word, bit, W word, bit, xor value, vectors.
#[rustfmt::skip]
pub(super) const CONDITIONS: [Condition; 156] = [
    c(35, 1, 36, 6, 1, &[one(46, 2), one(49, 2)]),
    c(35, 3, 39, 28, 0, &[one(51, 0), two(47, 0)]),
    c(35, 4, 39, 29, 0, &[one(45, 0), one(48, 0), two(47, 0)]),
    c(35, 5, 39, 30, 0, &[one(51, 2)]),
    c(35, 30, 40, 28, 1, &[two(48, 0)]),
    c(36, 0, 41, 30, 1, &[two(49, 2)]),
    c(36, 1, 37, 6, 1, &[one(47, 2), one(50, 2), two(46, 2)]),
    c(36, 3, 40, 28, 0, &[two(48, 0)]),
    c(36, 4, 37, 4, 1, &[one(50, 0)]),
    c(36, 4, 38, 4, 1, &[two(52, 0), two(54, 0)]),
    c(36, 4, 40, 29, 0, &[one(46, 0), one(49, 0), two(45, 0), two(48, 0)]),
    c(36, 30, 41, 28, 1, &[two(49, 0)]),
    c(37, 0, 42, 30, 1, &[two(50, 2)]),
    c(37, 1, 37, 6, 0, &[one(51, 2)]),
    c(37, 1, 38, 6, 1, &[one(48, 2), one(51, 2)]),
    c(37, 3, 41, 28, 0, &[two(49, 0)]),
    c(37, 4, 38, 4, 1, &[one(51, 0)]),
    c(37, 4, 39, 4, 1, &[one(43, 0), two(53, 0), two(55, 0)]),
    c(37, 4, 40, 29, 0, &[one(43, 0), one(47, 0), two(46, 0), two(53, 0), two(55, 0)]),
    c(37, 4, 41, 29, 0, &[one(50, 0), two(49, 0)]),
    c(37, 5, 41, 30, 0, &[two(49, 2)]),
    c(37, 30, 42, 28, 1, &[two(50, 0)]),
    c(38, 0, 43, 30, 1, &[two(51, 2)]),
    c(38, 1, 40, 1, 1, &[one(49, 2)]),
    c(38, 3, 42, 28, 0, &[two(50, 0)]),
    c(38, 4, 39, 4, 1, &[one(52, 0)]),
    c(38, 4, 40, 4, 1, &[one(44, 0), two(54, 0), two(56, 0)]),
    c(38, 4, 41, 29, 0, &[one(44, 0), one(48, 0), two(47, 0), two(54, 0), two(56, 0)]),
    c(38, 4, 42, 29, 0, &[one(51, 0), two(50, 0)]),
    c(38, 5, 42, 30, 0, &[two(50, 2)]),
    c(38, 30, 43, 28, 1, &[two(51, 0)]),
    c(39, 1, 40, 6, 1, &[one(46, 2), one(50, 2), two(49, 2)]),
    c(39, 3, 43, 28, 0, &[two(51, 0)]),
    c(39, 4, 41, 4, 1, &[one(43, 0), one(45, 0), two(55, 0)]),
    c(39, 4, 42, 29, 0, &[one(43, 0), one(45, 0), one(49, 0), two(48, 0), two(55, 0)]),
    c(39, 4, 43, 29, 0, &[one(52, 0), two(51, 0)]),
    c(39, 5, 43, 30, 0, &[two(51, 2)]),
    c(39, 6, 40, 1, 0, &[one(49, 2)]),
    c(39, 30, 44, 28, 1, &[two(52, 0)]),
    c(40, 1, 41, 6, 1, &[one(47, 2), one(51, 2), two(50, 2)]),
    c(40, 3, 44, 28, 0, &[two(52, 0)]),
    c(40, 4, 42, 4, 1, &[one(44, 0), one(46, 0), two(56, 0)]),
    c(40, 4, 43, 29, 0, &[one(44, 0), one(46, 0), one(50, 0), two(49, 0), two(56, 0)]),
    c(40, 4, 44, 29, 0, &[two(52, 0)]),
    c(40, 6, 41, 1, 0, &[one(50, 2), two(49, 2)]),
    c(40, 6, 42, 6, 0, &[one(46, 2)]),
    c(40, 29, 41, 29, 0, &[one(44, 0), one(47, 0), one(48, 0), two(46, 0), two(47, 0), two(56, 0)]),
    c(41, 1, 42, 6, 1, &[one(48, 2), two(46, 2), two(51, 2)]),
    c(41, 3, 45, 28, 0, &[two(53, 0)]),
    c(41, 4, 44, 29, 0, &[one(43, 0), one(45, 0), one(47, 0), one(51, 0), two(45, 0), two(50, 0)]),
    c(41, 4, 45, 29, 0, &[two(53, 0)]),
    c(41, 6, 42, 1, 0, &[one(51, 2), two(50, 2)]),
    c(41, 6, 43, 6, 0, &[one(47, 2)]),
    c(41, 29, 42, 29, 0, &[one(45, 0), one(48, 0), one(49, 0), two(47, 0), two(48, 0)]),
    c(42, 1, 50, 1, 1, &[one(49, 2)]),
    c(42, 3, 46, 28, 0, &[two(54, 0)]),
    c(42, 4, 45, 29, 0, &[one(44, 0), one(46, 0), one(48, 0), one(52, 0), two(46, 0), two(51, 0)]),
    c(42, 4, 46, 29, 0, &[two(54, 0)]),
    c(42, 6, 43, 1, 0, &[two(46, 2), two(51, 2)]),
    c(42, 6, 44, 6, 0, &[one(46, 2), one(48, 2)]),
    c(42, 29, 43, 29, 0, &[one(46, 0), one(49, 0), one(50, 0), two(48, 0), two(49, 0)]),
    c(43, 1, 51, 1, 1, &[one(50, 2)]),
    c(43, 3, 47, 28, 0, &[two(55, 0)]),
    c(43, 4, 46, 29, 0, &[one(43, 0), one(45, 0), one(47, 0), one(49, 0), two(47, 0), two(52, 0)]),
    c(43, 4, 47, 29, 0, &[two(55, 0)]),
    c(43, 6, 45, 6, 0, &[one(47, 2), one(49, 2)]),
    c(43, 29, 44, 29, 0, &[one(47, 0), one(50, 0), one(51, 0), two(45, 0), two(49, 0), two(50, 0)]),
    c(44, 1, 45, 6, 1, &[one(51, 2), two(49, 2)]),
    c(44, 3, 48, 28, 0, &[two(56, 0)]),
    c(44, 4, 47, 29, 0, &[one(44, 0), one(46, 0), one(48, 0), one(50, 0), two(48, 0), two(53, 0)]),
    c(44, 4, 48, 29, 0, &[two(56, 0)]),
    c(44, 6, 46, 6, 0, &[one(46, 2), one(48, 2), one(50, 2)]),
    c(44, 29, 45, 29, 0, &[one(48, 0), one(51, 0), one(52, 0), two(45, 0), two(46, 0), two(50, 0), two(51, 0)]),
    c(44, 29, 46, 29, 1, &[one(43, 0), one(45, 0), one(47, 0)]),
    c(45, 1, 47, 1, 1, &[two(50, 2)]),
    c(45, 4, 48, 29, 0, &[one(45, 0), one(47, 0), one(49, 0), one(51, 0), two(49, 0), two(54, 0)]),
    c(45, 6, 46, 1, 0, &[two(49, 2)]),
    c(45, 6, 47, 6, 0, &[one(47, 2), one(49, 2), one(51, 2)]),
    c(45, 29, 46, 29, 0, &[one(49, 0), one(52, 0), two(46, 0), two(47, 0), two(51, 0), two(52, 0)]),
    c(45, 29, 47, 29, 1, &[one(44, 0), one(46, 0), one(48, 0)]),
    c(46, 1, 48, 1, 1, &[two(51, 2)]),
    c(46, 4, 49, 29, 0, &[one(46, 0), one(48, 0), one(50, 0), one(52, 0), two(50, 0), two(55, 0)]),
    c(46, 6, 47, 1, 0, &[one(46, 2), two(50, 2)]),
    c(46, 6, 48, 6, 0, &[one(48, 2), one(50, 2)]),
    c(46, 29, 47, 29, 0, &[one(43, 0), one(50, 0), two(47, 0), two(48, 0), two(52, 0), two(53, 0)]),
    c(46, 29, 48, 29, 1, &[one(45, 0), one(47, 0), one(49, 0)]),
    c(47, 1, 51, 1, 1, &[two(46, 2)]),
    c(47, 4, 50, 29, 0, &[one(47, 0), one(49, 0), one(51, 0), two(45, 0), two(51, 0), two(56, 0)]),
    c(47, 6, 48, 1, 0, &[one(47, 2), two(51, 2)]),
    c(47, 6, 49, 6, 0, &[one(49, 2), one(51, 2)]),
    c(47, 29, 48, 29, 0, &[one(44, 0), one(51, 0), two(48, 0), two(49, 0), two(53, 0), two(54, 0)]),
    c(47, 29, 49, 29, 1, &[one(46, 0), one(48, 0), one(50, 0)]),
    c(48, 4, 51, 29, 0, &[one(48, 0), one(50, 0), one(52, 0), two(46, 0), two(52, 0)]),
    c(48, 6, 49, 1, 0, &[one(48, 2)]),
    c(48, 6, 50, 6, 0, &[one(50, 2), two(46, 2)]),
    c(48, 29, 49, 29, 0, &[one(45, 0), one(52, 0), two(49, 0), two(50, 0), two(54, 0), two(55, 0)]),
    c(48, 29, 50, 29, 1, &[one(47, 0), one(49, 0), one(51, 0)]),
    c(48, 29, 55, 29, 1, &[one(51, 0), one(52, 0)]),
    c(49, 4, 52, 29, 0, &[one(49, 0), one(51, 0), two(45, 0), two(47, 0), two(53, 0)]),
    c(49, 6, 50, 1, 0, &[one(49, 2)]),
    c(49, 6, 51, 6, 0, &[one(51, 2)]),
    c(49, 29, 50, 29, 0, &[one(46, 0), two(45, 0), two(50, 0), two(51, 0), two(55, 0), two(56, 0)]),
    c(49, 29, 51, 29, 1, &[one(48, 0), one(50, 0), one(52, 0)]),
    c(50, 1, 54, 1, 1, &[two(49, 2)]),
    c(50, 4, 53, 29, 0, &[one(50, 0), one(52, 0), two(46, 0), two(48, 0), two(54, 0)]),
    c(50, 6, 51, 1, 0, &[one(50, 2), two(46, 2)]),
    c(50, 29, 51, 29, 0, &[one(47, 0), two(46, 0), two(51, 0), two(52, 0), two(56, 0)]),
    c(50, 29, 52, 29, 1, &[one(49, 0), one(51, 0), two(45, 0)]),
    c(51, 1, 55, 1, 1, &[two(50, 2)]),
    c(51, 4, 54, 29, 0, &[one(51, 0), two(47, 0), two(49, 0), two(55, 0)]),
    c(51, 6, 52, 1, 0, &[one(51, 2)]),
    c(51, 6, 53, 6, 0, &[two(49, 2)]),
    c(51, 29, 52, 29, 0, &[one(48, 0), two(47, 0), two(52, 0), two(53, 0)]),
    c(51, 29, 54, 29, 1, &[one(50, 0), two(46, 0), two(47, 0)]),
    c(52, 1, 56, 1, 1, &[two(51, 2)]),
    c(52, 4, 55, 29, 0, &[one(52, 0), two(48, 0), two(50, 0), two(56, 0)]),
    c(52, 6, 54, 6, 0, &[two(50, 2)]),
    c(52, 29, 53, 29, 0, &[one(49, 0), two(45, 0), two(48, 0), two(53, 0), two(54, 0)]),
    c(53, 4, 56, 29, 0, &[two(49, 0), two(51, 0)]),
    c(53, 6, 54, 1, 0, &[two(49, 2)]),
    c(53, 6, 55, 6, 0, &[two(51, 2)]),
    c(53, 29, 54, 29, 0, &[one(50, 0), two(46, 0), two(49, 0), two(54, 0), two(55, 0)]),
    c(53, 29, 56, 29, 1, &[one(52, 0), two(48, 0), two(49, 0)]),
    c(54, 4, 57, 29, 0, &[two(50, 0), two(52, 0)]),
    c(54, 6, 55, 1, 0, &[two(50, 2)]),
    c(54, 29, 55, 29, 0, &[one(51, 0), two(47, 0), two(50, 0), two(55, 0), two(56, 0)]),
    c(55, 4, 58, 29, 0, &[two(51, 0), two(53, 0)]),
    c(55, 6, 56, 1, 0, &[two(51, 2)]),
    c(55, 29, 56, 29, 0, &[one(52, 0), two(48, 0), two(51, 0), two(56, 0)]),
    c(55, 29, 58, 29, 1, &[two(50, 0)]),
    c(56, 4, 59, 29, 0, &[two(52, 0), two(54, 0)]),
    c(56, 29, 57, 29, 0, &[two(49, 0), two(52, 0)]),
    c(56, 29, 59, 29, 1, &[two(51, 0), two(52, 0)]),
    c(57, 4, 59, 29, 0, &[two(55, 0)]),
    c(57, 4, 61, 29, 0, &[two(53, 0)]),
    c(57, 29, 58, 29, 0, &[two(50, 0), two(53, 0)]),
    c(58, 0, 63, 30, 1, &[one(43, 0)]),
    c(58, 4, 62, 29, 0, &[two(54, 0)]),
    c(58, 29, 59, 29, 0, &[two(51, 0), two(54, 0)]),
    c(58, 29, 61, 29, 1, &[two(53, 0)]),
    c(59, 0, 64, 30, 1, &[one(44, 0)]),
    c(59, 4, 63, 29, 0, &[two(55, 0)]),
    c(59, 5, 63, 30, 0, &[one(43, 0)]),
    c(59, 29, 60, 29, 0, &[two(52, 0)]),
    c(60, 0, 61, 5, 1, &[one(45, 0), two(45, 0)]),
    c(60, 4, 64, 29, 0, &[two(56, 0)]),
    c(60, 5, 64, 30, 0, &[one(44, 0)]),
    c(61, 0, 62, 5, 1, &[one(46, 0), two(46, 0)]),
    c(61, 1, 62, 6, 1, &[one(43, 0)]),
    c(61, 2, 62, 7, 1, &[one(46, 2), two(46, 2)]),
    c(62, 0, 63, 5, 1, &[one(47, 0), two(47, 0)]),
    c(62, 1, 63, 6, 1, &[one(44, 0)]),
    c(62, 2, 63, 7, 1, &[one(47, 2)]),
    c(63, 0, 64, 5, 1, &[one(48, 0), two(48, 0)]),
    c(63, 1, 64, 6, 1, &[one(45, 0), two(45, 0)]),
    c(63, 2, 64, 7, 1, &[one(48, 2)]),
];

/// Every vector's bit.
pub(crate) const ALL_DVS: u64 = {
    let mut all = 0;
    let mut k = 0;
    while k < DVS.len() {
        all |= DVS[k].mask_bit();
        k += 1;
    }
    all
};

/// The bit positions the relations read, one plane each.
pub(crate) const PLANE_BITS: [u32; 11] = [0, 1, 2, 3, 4, 5, 6, 7, 28, 29, 30];

pub(super) const fn plane_of(bit: u8) -> usize {
    let mut p = 0;
    while PLANE_BITS[p] != bit as u32 {
        p += 1;
    }
    p
}

/// A shape: bit `i` of W\[t\] xor bit `j` of W\[t + distance\] xor
/// `value`, a failure when 1, over every t of the window at once.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Shape {
    pub(super) distance: u8,
    pub(super) i: u8,
    pub(super) j: u8,
    pub(super) value: u8,
}

impl Shape {
    const NONE: Shape = Shape {
        distance: 0,
        i: 0,
        j: 0,
        value: 0,
    };

    const fn of(c: &Condition) -> Shape {
        Shape {
            distance: c.b - c.a,
            i: c.i,
            j: c.j,
            value: c.value,
        }
    }

    const fn eq(self, other: Shape) -> bool {
        self.distance == other.distance
            && self.i == other.i
            && self.j == other.j
            && self.value == other.value
    }
}

/// The distinct shapes of [`CONDITIONS`], and how many there are.
pub(super) const SHAPES: ([Shape; 156], usize) = {
    let mut shapes = [Shape::NONE; 156];
    let mut n = 0;
    let mut k = 0;
    while k < CONDITIONS.len() {
        let shape = Shape::of(&CONDITIONS[k]);
        let mut s = 0;
        while s < n && !shapes[s].eq(shape) {
            s += 1;
        }
        if s == n {
            shapes[n] = shape;
            n += 1;
        }
        k += 1;
    }
    (shapes, n)
};

pub(crate) const SHAPE_COUNT: usize = SHAPES.1;

const fn shape_index(c: &Condition) -> usize {
    let shape = Shape::of(c);
    let mut s = 0;
    while !SHAPES.0[s].eq(shape) {
        s += 1;
    }
    s
}

/// A check: the failures of shape `shape`, rotated right by `rotate`, fail
/// the vectors in `dvs`.
#[derive(Clone, Copy)]
pub(super) struct Check {
    pub(super) shape: usize,
    pub(super) rotate: u32,
    pub(super) dvs: u64,
}

/// The checks of every relation and vector, merged where shape and
/// rotation agree, and how many there are, for planes `width` bits wide
/// whose bit 0 is W\[`start`\], with vector `DVS[d]` at bit `bit_of[d]`:
/// a relation at `a` fails at bit a − `start`, which the rotation brings
/// to the vector's bit.
pub(super) const fn checks(start: u32, width: u32, bit_of: &[u32; 32]) -> ([Check; 128], usize) {
    let mut checks = [Check {
        shape: 0,
        rotate: 0,
        dvs: 0,
    }; 128];
    let mut n = 0;
    let mut k = 0;
    while k < CONDITIONS.len() {
        let cond = &CONDITIONS[k];
        let shape = shape_index(cond);
        let mut d = 0;
        while d < DVS.len() {
            if cond.dvs & DVS[d].mask_bit() != 0 {
                let to = bit_of[d];
                let rotate = (cond.a as u32 + width - start - to) % width;
                let mut m = 0;
                while m < n && !(checks[m].shape == shape && checks[m].rotate == rotate) {
                    m += 1;
                }
                if m == n {
                    checks[n] = Check {
                        shape,
                        rotate,
                        dvs: 0,
                    };
                    n += 1;
                }
                checks[m].dvs |= 1 << to;
            }
            d += 1;
        }
        k += 1;
    }
    (checks, n)
}

/// The checks of the 64-bit layout.
const CHECKS: ([Check; 128], usize) = {
    let mut bit_of = [0; 32];
    let mut d = 0;
    while d < DVS.len() {
        bit_of[d] = DVS[d].mask_bit().trailing_zeros();
        d += 1;
    }
    checks(WINDOW_START as u32, 64, &bit_of)
};

const CHECK_COUNT: usize = CHECKS.1;

/// The order of `N` groups of relations (group g tests `counts[g][d]` of
/// vector d) that greedily most lowers Σ_d 2^−k_d, the vectors a random
/// block is expected to leave standing after k_d relations of each.
pub(super) const fn greedy_order<const N: usize>(counts: &[[u32; 64]; N]) -> [usize; N] {
    /// 2^−k in units of 2^−40.
    const fn weight(k: u32) -> u64 {
        if k >= 40 { 0 } else { 1 << (40 - k) }
    }
    let mut order = [0; N];
    let mut used = [false; N];
    let mut tested = [0u32; 64];
    let mut n = 0;
    while n < N {
        let (mut best, mut best_gain) = (N, 0u64);
        let mut g = 0;
        while g < N {
            let mut gain = 0u64;
            let mut d = 0;
            while d < 64 {
                gain += weight(tested[d]) - weight(tested[d] + counts[g][d]);
                d += 1;
            }
            if !used[g] && (best == N || gain > best_gain) {
                (best, best_gain) = (g, gain);
            }
            g += 1;
        }
        used[best] = true;
        order[n] = best;
        let mut d = 0;
        while d < 64 {
            tested[d] += counts[best][d];
            d += 1;
        }
        n += 1;
    }
    order
}

/// [`CHECKS`] in [`greedy_order`], each one relation of each of its
/// vectors. After the first [`PREFIX`] about one block in ten has a vector
/// left (after all of them, one in twenty).
const ORDERED: [Check; CHECK_COUNT] = {
    let mut counts = [[0u32; 64]; CHECK_COUNT];
    let mut c = 0;
    while c < CHECK_COUNT {
        let mut bit = 0;
        while bit < 64 {
            counts[c][bit] = (CHECKS.0[c].dvs >> bit & 1) as u32;
            bit += 1;
        }
        c += 1;
    }
    let order = greedy_order(&counts);
    let mut ordered = [CHECKS.0[0]; CHECK_COUNT];
    let mut n = 0;
    while n < CHECK_COUNT {
        ordered[n] = CHECKS.0[order[n]];
        n += 1;
    }
    ordered
};

/// The bit planes of `window`: plane p, bit t, is bit `PLANE_BITS[p]` of
/// W\[32 + t\].
pub(crate) type Planes = [u64; PLANE_BITS.len()];

/// [`Planes`] of a whole window with scalar operations, eight words at a
/// time ([`add_to_planes`]): the form the SIMD planes are tested against.
#[cfg(test)]
#[inline]
pub(crate) fn planes_portable(window: &Window) -> Planes {
    let mut planes = [0u64; PLANE_BITS.len()];
    for (chunk, words) in window.chunks(8).enumerate() {
        add_to_planes(&mut planes, chunk, words);
    }
    planes
}

/// Adds W\[32 + 8`chunk`..\] (`words`, at most eight) to `planes`, as soon
/// as the rounds have made them: their low and top bytes packed into
/// `u64`s, then one multiplication per plane gathers a bit of each byte.
#[inline(always)]
pub(super) fn add_to_planes(planes: &mut Planes, chunk: usize, words: &[u32]) {
    /// Bit 0 of each byte of `x`, gathered into the top byte (byte k's
    /// bit lands at bit 56 + k, and no two partial products overlap),
    /// then shifted down.
    fn gather(x: u64) -> u64 {
        ((x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    }
    let (mut low, mut high) = (0u64, 0u64);
    for (k, &word) in words.iter().enumerate() {
        low |= u64::from(word & 0xFF) << (8 * k);
        high |= u64::from(word >> 24) << (8 * k);
    }
    for (p, (plane, &bit)) in planes.iter_mut().zip(&PLANE_BITS).enumerate() {
        let bytes = if p < 8 {
            low >> bit
        } else {
            high >> (bit - 24)
        };
        *plane |= gather(bytes) << (8 * chunk);
    }
}

/// Runs `$body` with `$i` bound to each listed index as a constant, so
/// that every table entry it reads folds into the code.
macro_rules! unrolled {
    (|$i:ident| $body:block; $($n:literal)*) => {
        $({
            const $i: usize = $n;
            $body
        })*
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use unrolled;

/// How many of [`ORDERED`] run on every block; the rest run only for a
/// block that leaves a vector standing after them (about one in ten).
const PREFIX: usize = 42;

const _: () = assert!(
    SHAPE_COUNT == 22 && PREFIX == 42 && CHECK_COUNT == 72,
    "list every index below"
);

/// The vectors whose relations all hold, as a mask of
/// [`Dv::mask_bit`]s, from the window's bit planes.
#[inline(always)]
pub(crate) fn dv_mask_from_planes(planes: &Planes) -> u64 {
    let mut failures = [0u64; SHAPE_COUNT];
    unrolled!(|S| {
        const SHAPE: Shape = SHAPES.0[S];
        const I: usize = plane_of(SHAPE.i);
        const J: usize = plane_of(SHAPE.j);
        const FLIP: u64 = if SHAPE.value == 1 { u64::MAX } else { 0 };
        failures[S] = planes[I] ^ (planes[J] >> SHAPE.distance) ^ FLIP;
    }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21);
    let mut failed = 0;
    // The listed checks of `ORDERED`, into `failed`.
    macro_rules! checks {
        ($($c:literal)*) => {
            unrolled!(|C| {
                const CHECK: Check = ORDERED[C];
                failed |= failures[CHECK.shape].rotate_right(CHECK.rotate) & CHECK.dvs;
            }; $($c)*);
        };
    }
    checks!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41);
    if ALL_DVS & !failed == 0 {
        return 0;
    }
    checks!(42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71);
    ALL_DVS & !failed
}

/// The vectors whose relations all hold for the expanded message whose
/// words 32..68 are `window`.
#[cfg(test)]
#[inline]
pub(crate) fn dv_mask(window: &Window) -> u64 {
    dv_mask_from_planes(&planes_portable(window))
}

#[cfg(test)]
/// [`dv_mask`] as the table reads, one relation at a time: the oracle for
/// the fast forms.
pub(crate) fn dv_mask_reference(w: &[u32; 80]) -> u64 {
    let mut mask = ALL_DVS;
    for cond in &CONDITIONS {
        let bit = |word: u8, at: u8| (w[usize::from(word)] >> at) & 1;
        if bit(cond.a, cond.i) ^ bit(cond.b, cond.j) != u32::from(cond.value) {
            mask &= !cond.dvs;
        }
    }
    mask
}

/// Expanded-message words for the filter's tests (here and in the SIMD
/// forms): random words, every other set made to satisfy all relations of
/// one vector (random words almost never reach those answers).
#[cfg(test)]
pub(crate) fn test_words(count: usize) -> impl Iterator<Item = [u32; 80]> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 32) as u32
    };
    (0..count).map(move |round| {
        let mut w: [u32; 80] = core::array::from_fn(|_| next());
        if round % 2 == 1 {
            let dv = DVS[round / 2 % DVS.len()].mask_bit();
            for _ in 0..3 {
                for cond in CONDITIONS.iter().filter(|c| c.dvs & dv != 0) {
                    let bit = |word: u8, at: u8| (w[usize::from(word)] >> at) & 1;
                    if bit(cond.a, cond.i) ^ bit(cond.b, cond.j) != u32::from(cond.value) {
                        w[usize::from(cond.b)] ^= 1 << cond.j;
                    }
                }
            }
        }
        w
    })
}

/// W\[32..68\] of `w`: the words [`dv_mask`] reads.
#[cfg(test)]
pub(crate) fn window(w: &[u32; 80]) -> &Window {
    w[WINDOW_START..][..WINDOW_LEN]
        .try_into()
        .expect("the window lies inside W")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expansion of a block whose words are `words`.
    fn expand(words: [u32; 16]) -> [u32; 80] {
        let bytes: [u8; 64] = core::array::from_fn(|i| words[i / 4].to_be_bytes()[i % 4]);
        crate::checked::recompress::expand(&bytes)
    }

    #[test]
    fn the_table_reads_only_the_window_and_the_planes_bits() {
        for cond in &CONDITIONS {
            for (word, bit) in [(cond.a, cond.i), (cond.b, cond.j)] {
                assert!((35..=64).contains(&word));
                assert!(PLANE_BITS.contains(&u32::from(bit)));
            }
            assert!(cond.a <= cond.b && cond.value <= 1 && cond.dvs != 0);
        }
        assert_eq!((SHAPE_COUNT, CHECK_COUNT), (22, 72));
    }

    /// The fast form equals the table on random words, and on words made
    /// to satisfy every relation of one vector (where random words almost
    /// never reach the interesting answers).
    #[test]
    fn fast_mask_equals_the_reference() {
        let mut passed = 0;
        for (round, w) in test_words(20_000).enumerate() {
            let expected = dv_mask_reference(&w);
            passed += u32::from(expected != 0);
            assert_eq!(dv_mask(window(&w)), expected, "round {round}");
        }
        assert!(
            passed > 2_500,
            "the satisfied rounds reach the vectors: {passed}"
        );
    }

    /// On expanded messages about one block in twenty passes some vector
    /// (the rate the paper's filter leaves to the recompression).
    #[test]
    fn random_blocks_rarely_pass() {
        let passed = test_words(40_000)
            .step_by(2)
            .filter(|w| dv_mask(window(&expand(w[..16].try_into().unwrap()))) != 0)
            .count();
        assert!((600..1400).contains(&passed), "{passed}");
    }
}
