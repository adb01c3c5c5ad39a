//! The collision filter bit-sliced on AVX2, eight blocks a pass, for the
//! SHA-NI kernel's four lanes on CPUs without AVX-512: `vpmovmskb` makes
//! each block's 32-bit planes, and the tables of [`crate::checked::sliced`]
//! run unrolled on all eight. Out of line, so that the `ymm` registers are
//! clean (`vzeroupper`) before the SSE kernel's next batch.

use crate::arch::x86_64::cpu::Avx2;
use crate::arch::x86_64::spill::PLANE_BITS;
use crate::arch::x86_64::spill::ReversedGroups;
use crate::arch::x86_64::spill::Spill;
use crate::checked::sliced::{
    ALL, CHECK_COUNT, SHAPE_COUNT, SHAPE_TABLE, START, SlicedCheck, SlicedShape, sorted_checks,
    to_mask,
};
use crate::checked::ubc::unrolled;
use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps, _mm256_cmpeq_epi32,
    _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_movemask_ps, _mm256_or_si256,
    _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_setr_epi8, _mm256_setr_epi32,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi16, _mm256_slli_epi32,
    _mm256_srli_epi32, _mm256_storeu_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32,
    _mm256_unpacklo_epi64, _mm256_xor_si256,
};

/// Blocks per pass.
pub(crate) const LANES: usize = 8;

impl Avx2 {
    /// Which blocks of the runs of spills `runs` (one run, or the lanes
    /// of an interleaved kernel; at most 64 blocks in all) the filter lets
    /// through, as bits, with each one's mask in `masks`, eight blocks a
    /// pass: the runs' blocks in order share the passes, so short runs do
    /// not each pay one. Bit and mask `i` are those of the `i`-th block
    /// overall.
    #[inline]
    pub(crate) fn suspects_of_runs(self, runs: &[&[Spill]], masks: &mut [u64]) -> u64 {
        let count: usize = runs.iter().map(|run| run.len()).sum();
        assert!(count <= 64 && masks.len() >= count);
        // SAFETY: `self` exists, so `Avx2::detect` saw AVX2.
        unsafe { suspects(runs.iter().flat_map(|run| run.iter()), masks) }
    }
}

/// [`Avx2::suspects_of_runs`] of the spills `spills` yields (at most 64, and as
/// many `masks`).
#[target_feature(enable = "avx2")]
fn suspects<'s>(mut spills: impl Iterator<Item = &'s Spill>, masks: &mut [u64]) -> u64 {
    let (mut found, mut start) = (0, 0);
    loop {
        // Plane p of block k at `rows[p][k]`; W[64] of block k at `w64[k]`.
        let mut rows = [[0u32; LANES]; 11];
        let mut w64 = [0u32; LANES];
        let mut count = 0;
        for (k, spill) in (&mut spills).take(LANES).enumerate() {
            for (row, plane) in rows.iter_mut().zip(planes(spill.window())) {
                row[k] = plane;
            }
            w64[k] = spill.w64();
            count += 1;
        }
        if count == 0 {
            return found;
        }
        // SAFETY: each array is 32 readable bytes.
        let load = |lanes: &[u32; LANES]| unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) };
        let w64 = load(&w64);
        let top = _mm256_set1_epi32(i32::MIN);
        let mut sliced = [_mm256_setzero_si256(); 11];
        unrolled!(|P| {
            const SHIFT: i32 = 31 - PLANE_BITS[P] as i32;
            let below = _mm256_srli_epi32::<{ (START - 32) as i32 }>(load(&rows[P]));
            let w64_bit = _mm256_and_si256(_mm256_slli_epi32::<SHIFT>(w64), top);
            sliced[P] = _mm256_or_si256(below, w64_bit);
        }; 0 1 2 3 4 5 6 7 8 9 10);
        let (passing, lanes) = passing(&sliced, (1 << count) - 1);
        for (mask, &lane) in masks[start..start + count].iter_mut().zip(&lanes) {
            *mask = to_mask(lane);
        }
        found |= u64::from(passing) << start;
        start += count;
        if count < LANES {
            return found;
        }
    }
}

/// The lanes of `valid` whose block the filter lets through, as bits,
/// and every lane's sliced mask, from the eight blocks' sliced `planes`.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn passing(planes: &[__m256i; 11], valid: u32) -> (u32, [u32; LANES]) {
    let passed = passes(planes);
    let mut lanes = [0u32; LANES];
    // SAFETY: `lanes` is 32 writable bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), passed) };
    let zero = _mm256_cmpeq_epi32(passed, _mm256_setzero_si256());
    let passing = !_mm256_movemask_ps(_mm256_castsi256_ps(zero)) as u32;
    (passing & valid, lanes)
}

/// The planes of W\[32..64\] (bit t − 32 is bit `PLANE_BITS[p]` of
/// W\[t\]) from the window's first eight groups (W_{4k} in each top lane).
#[target_feature(enable = "avx2")]
#[inline]
fn planes(window: &ReversedGroups) -> [u32; 11] {
    // Per group: its words' low bytes in order of t to dword 0, their top
    // bytes to dword 1.
    let gather = _mm256_setr_epi8(
        12, 8, 4, 0, 15, 11, 7, 3, -1, -1, -1, -1, -1, -1, -1, -1, //
        12, 8, 4, 0, 15, 11, 7, 3, -1, -1, -1, -1, -1, -1, -1, -1,
    );
    // A loop, not `map`: a closure calling an AVX2 intrinsic may stay out
    // of line (see `x86/shani.rs`'s block loads).
    let mut pairs = [gather; 4];
    for (q, pair) in pairs.iter_mut().enumerate() {
        // SAFETY: groups 2q and 2q + 1 (q < 4) are 32 readable bytes of
        // the window's first eight; the load is unaligned.
        let groups = unsafe { _mm256_loadu_si256(window[2 * q..].as_ptr().cast()) };
        *pair = _mm256_shuffle_epi8(groups, gather);
    }
    let [a, b, c, d] = pairs;
    // Lane 0 holds groups 0, 2, 4, 6 and lane 1 groups 1, 3, 5, 7: low
    // dwords to one vector, top dwords to the other, then in order.
    let (ab, cd) = (_mm256_unpacklo_epi32(a, b), _mm256_unpacklo_epi32(c, d));
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    let low = _mm256_permutevar8x32_epi32(_mm256_unpacklo_epi64(ab, cd), order);
    let high = _mm256_permutevar8x32_epi32(_mm256_unpackhi_epi64(ab, cd), order);
    let mut planes = [0u32; 11];
    unrolled!(|P| {
        const BIT: u32 = PLANE_BITS[P];
        let bytes = if BIT < 8 {
            _mm256_slli_epi16::<{ (7 - BIT as i32) & 7 }>(low)
        } else {
            _mm256_slli_epi16::<{ (31 - BIT as i32) & 7 }>(high)
        };
        planes[P] = _mm256_movemask_epi8(bytes) as u32;
    }; 0 1 2 3 4 5 6 7 8 9 10);
    planes
}

/// [`crate::checked::sliced::CHECK_TABLE`] sorted by shape, so that each
/// shape's failures are used as soon as they are made: sixteen registers
/// cannot hold all 22.
const BY_SHAPE: [SlicedCheck; CHECK_COUNT] = sorted_checks(true);

/// The sliced masks of the eight blocks whose planes are `planes` (one
/// block per lane): the shapes and checks of [`crate::checked::sliced`],
/// unrolled, the checks in four chains.
#[target_feature(enable = "avx2")]
#[inline]
fn passes(planes: &[__m256i; 11]) -> __m256i {
    let mut failed = [_mm256_setzero_si256(); 4];
    unrolled!(|C| {
        const CHECK: SlicedCheck = BY_SHAPE[C];
        const SHAPE: SlicedShape = SHAPE_TABLE[CHECK.shape];
        // The shape's failures, made again for each of its checks: the
        // compiler merges the repeats.
        let shifted = _mm256_srli_epi32::<{ SHAPE.distance as i32 }>(planes[SHAPE.plane_j]);
        let flip = _mm256_set1_epi32(SHAPE.flip as i32);
        let f = _mm256_xor_si256(_mm256_xor_si256(planes[SHAPE.plane_i], shifted), flip);
        // By 0, the left shift is by 32, which gives 0.
        let rotated = _mm256_or_si256(
            _mm256_srli_epi32::<{ CHECK.rotate as i32 }>(f),
            _mm256_slli_epi32::<{ 32 - CHECK.rotate as i32 }>(f),
        );
        let dvs = _mm256_set1_epi32(CHECK.dvs as i32);
        failed[C % 4] = _mm256_or_si256(failed[C % 4], _mm256_and_si256(rotated, dvs));
    }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74);
    let [f0, f1, f2, f3] = failed;
    let failed = _mm256_or_si256(_mm256_or_si256(f0, f1), _mm256_or_si256(f2, f3));
    _mm256_andnot_si256(failed, _mm256_set1_epi32(ALL as i32))
}

const _: () = assert!(
    CHECK_COUNT == 75 && SHAPE_COUNT == 22,
    "list every index above"
);
