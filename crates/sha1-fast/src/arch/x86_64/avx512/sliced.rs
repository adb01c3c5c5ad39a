//! The collision filter bit-sliced on AVX-512 with VBMI and GFNI, sixteen
//! blocks a pass: per block a byte permute, `gf2p8affineqb` (the 8×8 bit
//! transpose) and a byte permute make its row (dword p is plane p); a
//! 16×16 transpose makes the planes, and the tables of
//! [`crate::checked::sliced`] run unrolled on all sixteen. For the SHA-NI
//! kernel a pass is made in calls ([`Avx512Vbmi::stage`]) that each make a
//! few rows and run one of the pass's [`STEPS`] steps, short enough for
//! the out-of-order core to run beside the rounds.

use crate::arch::x86_64::cpu::Avx512Vbmi;
use crate::arch::x86_64::spill::{PLANE_BITS, ReversedGroups, Spill};
use crate::checked::sliced::{
    ALL, CHECK_COUNT, CHECKS_BY_ROTATION, SHAPE_COUNT, SHAPE_TABLE, START, SlicedCheck,
    SlicedShape, starts_rotation, to_mask,
};
use crate::checked::ubc::unrolled;
use core::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_andnot_si512, _mm512_gf2p8affine_epi64_epi8,
    _mm512_loadu_si512, _mm512_mask_test_epi32_mask, _mm512_or_si512, _mm512_permutex2var_epi8,
    _mm512_permutexvar_epi8, _mm512_ror_epi32, _mm512_set1_epi32, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_shuffle_i32x4, _mm512_sllv_epi32, _mm512_srli_epi32,
    _mm512_storeu_si512, _mm512_ternarylogic_epi32, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi32, _mm512_unpacklo_epi64,
};
use core::mem::MaybeUninit;

/// Blocks per pass.
pub(crate) const LANES: usize = 16;

/// Calls of [`Avx512Vbmi::stage`] that make a pass: the transpose, then
/// the shapes and the checks in three parts of about equal length.
pub(crate) const STEPS: usize = 4;

/// A pass in the making: its rows, one per block, as
/// [`Avx512Vbmi::stage`] makes them, and what each of its steps hands the
/// next.
#[repr(C, align(64))]
pub(crate) struct Pass {
    rows: [MaybeUninit<__m512i>; LANES],
    planes: [MaybeUninit<__m512i>; PLANES],
    failures: [MaybeUninit<__m512i>; SHAPE_COUNT],
    failed: [MaybeUninit<__m512i>; ACCUMULATORS],
    /// How many rows, from the first, are made.
    made: usize,
    /// How many steps are done.
    steps: usize,
}

impl Pass {
    /// No rows yet, made in `place`: writing only the counts, where a
    /// value made and moved there would be copied whole.
    pub(crate) fn new_in(place: &mut MaybeUninit<Pass>) -> &mut Pass {
        let pass = place.as_mut_ptr();
        // SAFETY: `pass` is valid for writes; every other field is
        // `MaybeUninit`, so the counts make the whole value.
        unsafe {
            (&raw mut (*pass).made).write(0);
            (&raw mut (*pass).steps).write(0);
            place.assume_init_mut()
        }
    }
}

impl Avx512Vbmi {
    /// Makes the rows of `spills` (see [`row`]) into `pass`, from row
    /// `first` (0 starts a new pass), then, given `before` (a pass with
    /// all its rows and room for its masks), runs its next step; returns
    /// that pass's bits when the step was its last, as
    /// [`Avx512Vbmi::finish`]. One short out-of-line call, so that the
    /// out-of-order core runs it beside the SHA rounds in flight.
    #[inline]
    pub(crate) fn stage(
        self,
        pass: &mut Pass,
        first: usize,
        spills: &[Spill],
        before: Option<(&mut Pass, &mut [u64])>,
    ) -> Option<u32> {
        if first == 0 {
            pass.steps = 0;
        }
        assert!(first <= pass.made && pass.steps == 0);
        pass.made = first + spills.len();
        let out = &mut pass.rows[first..pass.made];
        // SAFETY: `self` exists, so `Avx512Vbmi::detect` saw every
        // feature that `stage` enables.
        unsafe { stage(out, spills, before, 1) }
    }

    /// Runs the steps of `pass` not yet run: which of its blocks (1 to
    /// [`LANES`], as many as it has rows) the filter lets through, as
    /// bits, with each one's mask in `masks` (the others' entries are set
    /// to 0).
    #[inline]
    pub(crate) fn finish(self, pass: &mut Pass, masks: &mut [u64]) -> u32 {
        assert!(pass.made >= 1);
        // SAFETY: `self` exists, so `Avx512Vbmi::detect` saw every
        // feature that `stage` enables.
        unsafe { stage(&mut [], &[], Some((pass, masks)), STEPS) }.expect("the last step")
    }
}

/// A byte table.
macro_rules! bytes {
    ($table:expr) => {{
        let table: &[u8; 64] = &$table;
        // SAFETY: `table` is 64 readable bytes.
        unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
    }};
}

/// Where W_t's byte `b` sits among the spilled groups: group (t − 32) / 4,
/// word t − 32 − 4g in lane 3 − that.
const fn spilled(t: usize, b: usize) -> u8 {
    let g = (t - 32) / 4;
    let m = (t - 32) % 4;
    (16 * g + 4 * (3 - m) + b) as u8
}

/// Byte tables for the permutes, built at compile time.
#[repr(C, align(64))]
struct ByteTables {
    /// `vpermt2b` over groups 8–15 (W\[32..64\], 128 bytes): `u64` q < 4
    /// gets the low bytes of W\[33 + 8q ..\], q ≥ 4 the top bytes of
    /// W\[33 + 8(q − 4) ..\], word k of the eight in byte 7 − k (the
    /// transpose reverses). W\[64\] is not there: W\[32\]'s bytes stand in,
    /// and its bit is replaced later.
    gather: [u8; 64],
    /// From the transposed bytes to the row: dword p < 8 takes byte p of
    /// `u64`s 0–3, dwords 8–10 bytes 4–6 of `u64`s 4–7 (bits 28–30).
    arrange: [u8; 64],
}

static BYTES: ByteTables = {
    let mut t = ByteTables {
        gather: [0; 64],
        arrange: [0; 64],
    };
    let mut n = 0;
    while n < 64 {
        let (q, k) = (n / 8, n % 8);
        let word = START + 8 * (q % 4) + (7 - k);
        let word = if word == 64 { 32 } else { word };
        t.gather[n] = spilled(word, if q < 4 { 0 } else { 3 });
        let (p, c) = (n / 4, n % 4);
        t.arrange[n] = match p {
            0..8 => (8 * c + p) as u8,
            8..11 => (8 * (4 + c) + 4 + p - 8) as u8,
            _ => 0,
        };
        n += 1;
    }
    t
};

/// A window's row: dword p holds its plane p (bit t − 33 is bit
/// `PLANE_BITS[p]` of W\[t\]), with W\[32\]'s bit standing in for W\[64\]'s.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[inline]
pub(super) fn row(window: &ReversedGroups) -> __m512i {
    // One-hot bytes: the transpose's input, byte j = 1 << j.
    let one_hot = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
    let groups = &window[..8];
    // SAFETY: `groups` is 128 readable bytes.
    let (first, second) = unsafe {
        let at = groups.as_ptr().cast::<__m512i>();
        (_mm512_loadu_si512(at), _mm512_loadu_si512(at.add(1)))
    };
    let words = _mm512_permutex2var_epi8(first, bytes!(BYTES.gather), second);
    let bits = _mm512_gf2p8affine_epi64_epi8::<0>(one_hot, words);
    _mm512_permutexvar_epi8(bytes!(BYTES.arrange), bits)
}

/// The listed checks of [`CHECKS_BY_ROTATION`] (whole rotation groups)
/// over `$failures` into the accumulators `$failed`: each vector a check
/// covers fails where its rotated shape failed. A group gathers its
/// checks' failures and is rotated once.
macro_rules! checks {
    ($failed:ident, $failures:ident; $($c:literal)*) => {{
        let mut group = _mm512_setzero_si512();
        unrolled!(|C| {
            const CHECK: SlicedCheck = CHECKS_BY_ROTATION[C];
            let dvs = _mm512_set1_epi32(CHECK.dvs as i32);
            let failures = $failures[CHECK.shape];
            if CHECK.rotate == 0 {
                // failed | (failures & dvs)
                $failed[C % ACCUMULATORS] =
                    _mm512_ternarylogic_epi32::<0xF8>($failed[C % ACCUMULATORS], failures, dvs);
            } else {
                group = if starts_rotation(C) {
                    _mm512_and_si512(failures, dvs)
                } else {
                    // group | (failures & dvs)
                    _mm512_ternarylogic_epi32::<0xF8>(group, failures, dvs)
                };
                if starts_rotation(C + 1) {
                    let rotated = _mm512_ror_epi32::<{ CHECK.rotate as i32 }>(group);
                    $failed[C % ACCUMULATORS] = _mm512_or_si512($failed[C % ACCUMULATORS], rotated);
                }
            }
        }; $($c)*);
    }};
}

/// Shift counts that move bit `PLANE_BITS[p]` of W\[64\] to the top of
/// dword p.
static W64_SHIFTS: [u32; LANES] = {
    let mut shifts = [0; LANES];
    let mut p = 0;
    while p < PLANE_BITS.len() {
        shifts[p] = 31 - PLANE_BITS[p];
        p += 1;
    }
    shifts
};

/// [`Avx512Vbmi::stage`]: each spill's row, W\[64\]'s bits in place of
/// W\[32\]'s, then up to `steps` steps of the pass `before`. Never
/// inlined: the SHA-NI kernel calls it between blocks of legacy-SSE SHA
/// instructions, which run many times slower while the upper halves of
/// the vector registers are dirty; returning clears them (`vzeroupper`).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[inline(never)]
fn stage(
    out: &mut [MaybeUninit<__m512i>],
    spills: &[Spill],
    before: Option<(&mut Pass, &mut [u64])>,
    steps: usize,
) -> Option<u32> {
    // SAFETY: 64 readable bytes.
    let shifts = unsafe { _mm512_loadu_si512(W64_SHIFTS.as_ptr().cast()) };
    let top = _mm512_set1_epi32(i32::MIN);
    for (out, spill) in out.iter_mut().zip(spills) {
        let w64_bits = _mm512_sllv_epi32(_mm512_set1_epi32(spill.w64() as i32), shifts);
        // top ? w64_bit : row
        out.write(_mm512_ternarylogic_epi32::<0xCA>(
            top,
            w64_bits,
            row(spill.window()),
        ));
    }
    let (pass, masks) = before?;
    if steps == STEPS && pass.steps == 0 {
        return Some(whole(pass, masks));
    }
    let mut found = None;
    for _ in 0..steps {
        found = step(pass, masks);
        if found.is_some() {
            break;
        }
    }
    found
}

/// Reads what an earlier step wrote.
///
/// # Safety
///
/// Every element of `v` is written.
#[inline(always)]
unsafe fn written<const N: usize>(v: &[MaybeUninit<__m512i>; N]) -> [__m512i; N] {
    // SAFETY: the caller's promise.
    core::array::from_fn(|i| unsafe { v[i].assume_init() })
}

/// Hands `from` on to the next step.
#[inline(always)]
fn store<const N: usize>(to: &mut [MaybeUninit<__m512i>; N], from: [__m512i; N]) {
    for (to, from) in to.iter_mut().zip(from) {
        to.write(from);
    }
}

/// Runs the next step of `pass`, whose rows are all made; after the last,
/// returns which blocks passed, their masks in `masks`.
#[target_feature(enable = "avx512f")]
#[inline]
fn step(pass: &mut Pass, masks: &mut [u64]) -> Option<u32> {
    assert!((1..=LANES).contains(&pass.made) && pass.steps < STEPS);
    // Each step writes what the next reads: steps run in order, counted
    // by `pass.steps`, and the first reads the made rows.
    match pass.steps {
        0 => {
            let planes = planes(pass);
            store(&mut pass.planes, planes);
        }
        1 => {
            // SAFETY: step 0 wrote the planes.
            let failures = shapes(&unsafe { written(&pass.planes) });
            let mut failed = [_mm512_setzero_si512(); ACCUMULATORS];
            checks!(failed, failures; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17);
            store(&mut pass.failures, failures);
            store(&mut pass.failed, failed);
        }
        2 => {
            // SAFETY: step 1 wrote both.
            let (failures, mut failed) =
                unsafe { (written(&pass.failures), written(&pass.failed)) };
            checks!(failed, failures; 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44);
            store(&mut pass.failed, failed);
        }
        _ => {
            // SAFETY: steps 1 and 2 wrote them.
            let (failures, mut failed) =
                unsafe { (written(&pass.failures), written(&pass.failed)) };
            checks!(failed, failures; 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74);
            let (passed, sliced) = survivors(failed, valid(pass));
            return Some(passed_with_masks(pass, passed, sliced, masks));
        }
    }
    pass.steps += 1;
    None
}

/// The whole pass over `pass`'s made rows, in registers: each step's
/// results read back from memory would wait for the wide stores to
/// retire, as they cannot be forwarded.
#[target_feature(enable = "avx512f")]
#[inline]
fn whole(pass: &mut Pass, masks: &mut [u64]) -> u32 {
    let (passed, sliced) = passes(&planes(pass), valid(pass));
    passed_with_masks(pass, passed, sliced, masks)
}

/// The planes of `pass`'s made rows, zero in the lanes of the others.
#[target_feature(enable = "avx512f")]
#[inline]
fn planes(pass: &Pass) -> [__m512i; PLANES] {
    let made = pass.made;
    let rows = core::array::from_fn(|r| match r < made {
        // SAFETY: the row is made.
        true => unsafe { pass.rows[r].assume_init() },
        false => _mm512_setzero_si512(),
    });
    let columns = transpose(&rows);
    core::array::from_fn(|p| columns[p])
}

/// The lanes of `pass` that hold blocks.
fn valid(pass: &Pass) -> u16 {
    ((1u32 << pass.made) - 1) as u16
}

/// Ends `pass`, whose survivors are `sliced` and whose blocks `passed`
/// have some: each block's mask into `masks` (0 for the others), and
/// `passed` widened.
#[target_feature(enable = "avx512f")]
#[inline]
fn passed_with_masks(pass: &mut Pass, passed: u16, sliced: __m512i, masks: &mut [u64]) -> u32 {
    pass.steps = STEPS;
    let masks = &mut masks[..pass.made];
    masks.fill(0);
    if passed != 0 {
        let mut out = [0u32; LANES];
        // SAFETY: `out` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), sliced) };
        let mut rest = passed;
        while rest != 0 {
            let lane = rest.trailing_zeros() as usize;
            masks[lane] = to_mask(out[lane]);
            rest &= rest - 1;
        }
    }
    u32::from(passed)
}

/// The sliced masks of the sixteen blocks whose planes (plane p, bit
/// t − [`START`] is bit `PLANE_BITS[p]` of W\[t\], one block per lane) are
/// `planes`, and which of the `valid` lanes passed.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn passes(planes: &[__m512i; PLANES], valid: u16) -> (u16, __m512i) {
    let failures = shapes(planes);
    let mut failed = [_mm512_setzero_si512(); ACCUMULATORS];
    checks!(failed, failures; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74);
    survivors(failed, valid)
}

/// The planes of a row's dwords that hold plane bits.
const PLANES: usize = PLANE_BITS.len();

/// Accumulators of the checks, so that they are four short dependency
/// chains rather than one of 75.
const ACCUMULATORS: usize = 4;

/// Each shape's failures (bit t − [`START`] set where its relation fails
/// at W\[t\]) from the planes.
#[target_feature(enable = "avx512f")]
#[inline]
fn shapes(planes: &[__m512i; PLANES]) -> [__m512i; SHAPE_COUNT] {
    let mut failures = [_mm512_setzero_si512(); SHAPE_COUNT];
    unrolled!(|S| {
        const SHAPE: SlicedShape = SHAPE_TABLE[S];
        let shifted = _mm512_srli_epi32::<{ SHAPE.distance }>(planes[SHAPE.plane_j]);
        let flip = _mm512_set1_epi32(SHAPE.flip as i32);
        failures[S] = _mm512_ternarylogic_epi32::<0x96>(planes[SHAPE.plane_i], shifted, flip);
    }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21);
    failures
}

/// The vectors left standing in each lane once every check has run into
/// `failed`, and which of the `valid` lanes have one.
#[target_feature(enable = "avx512f")]
#[inline]
fn survivors(failed: [__m512i; ACCUMULATORS], valid: u16) -> (u16, __m512i) {
    // ALL & !(f0 | f1 | f2 | f3)
    let [f0, f1, f2, f3] = failed;
    let failed = _mm512_or_si512(_mm512_ternarylogic_epi32::<0xFE>(f0, f1, f2), f3);
    let passes = _mm512_andnot_si512(failed, _mm512_set1_epi32(ALL as i32));
    (_mm512_mask_test_epi32_mask(valid, passes, passes), passes)
}

/// The 16×16 transpose of dwords: column p of `rows` as vector p.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn transpose(rows: &[__m512i; 16]) -> [__m512i; 16] {
    // Pairs of rows interleaved, then pairs of pairs: `quads[4i + c]`
    // holds, in 128-bit lane l, column 4l + c of rows 4i..4i + 4.
    let pairs: [__m512i; 16] = core::array::from_fn(|n| {
        let (a, b) = (rows[n / 2 * 2], rows[n / 2 * 2 + 1]);
        if n % 2 == 0 {
            _mm512_unpacklo_epi32(a, b)
        } else {
            _mm512_unpackhi_epi32(a, b)
        }
    });
    let quads: [__m512i; 16] = core::array::from_fn(|n| {
        let (i, c) = (n / 4, n % 4);
        let (a, b) = (pairs[4 * i + c / 2], pairs[4 * i + 2 + c / 2]);
        if c % 2 == 0 {
            _mm512_unpacklo_epi64(a, b)
        } else {
            _mm512_unpackhi_epi64(a, b)
        }
    });
    // Column 4l + c: lane l of quads c, 4 + c, 8 + c, 12 + c, gathered
    // two lanes at a time.
    let mut columns = [_mm512_setzero_si512(); 16];
    for c in 0..4 {
        let (q0, q1, q2, q3) = (quads[c], quads[4 + c], quads[8 + c], quads[12 + c]);
        let low = (
            _mm512_shuffle_i32x4::<0x44>(q0, q1),
            _mm512_shuffle_i32x4::<0x44>(q2, q3),
        );
        let high = (
            _mm512_shuffle_i32x4::<0xEE>(q0, q1),
            _mm512_shuffle_i32x4::<0xEE>(q2, q3),
        );
        columns[c] = _mm512_shuffle_i32x4::<0x88>(low.0, low.1);
        columns[4 + c] = _mm512_shuffle_i32x4::<0xDD>(low.0, low.1);
        columns[8 + c] = _mm512_shuffle_i32x4::<0x88>(high.0, high.1);
        columns[12 + c] = _mm512_shuffle_i32x4::<0xDD>(high.0, high.1);
    }
    columns
}

const _: () = assert!(
    SHAPE_COUNT == 22 && CHECK_COUNT == 75,
    "list every index above"
);

const _: () = assert!(
    starts_rotation(18) && starts_rotation(45),
    "the pass's steps split it between rotation groups"
);

#[cfg(test)]
mod tests {
    use super::{Avx512Vbmi, LANES, Pass, STEPS};
    use crate::arch::x86_64::spill::Spill;
    use crate::checked::ubc::dv_mask_reference;
    use crate::checked::ubc::test_words;
    use core::mem::MaybeUninit;
    use std::vec::Vec;

    /// Every position in a pass, every pass length: the suspects and
    /// their masks equal the reference's.
    #[test]
    fn equals_the_reference() {
        let Some(filter) = Avx512Vbmi::detect() else {
            return;
        };
        let words: Vec<[u32; 80]> = test_words(4_000).collect();
        // Random words, with one made to pass a vector at `at`.
        let (random, passing): (Vec<_>, Vec<_>) = words.chunks(2).map(|p| (p[0], p[1])).unzip();
        for (round, batch) in random.chunks(LANES).enumerate() {
            for at in 0..batch.len() {
                let mut batch = batch.to_vec();
                batch[at] = passing[(round * LANES + at) % passing.len()];
                let spills: Vec<Spill> = batch.iter().map(Spill::of_schedule).collect();
                for from in [0, 1, 7, 15] {
                    let Some(spills) = spills.get(from..).filter(|s| !s.is_empty()) else {
                        continue;
                    };
                    let mut pass = MaybeUninit::uninit();
                    let pass = Pass::new_in(&mut pass);
                    for (i, spill) in spills.chunks(3).enumerate() {
                        assert_eq!(filter.stage(pass, 3 * i, spill, None), None);
                    }
                    let mut masks = [u64::MAX; LANES];
                    let got = if spills.len() == LANES {
                        // Each step in a call of its own, as the kernel runs them.
                        let mut next = MaybeUninit::uninit();
                        let next = Pass::new_in(&mut next);
                        let steps: Vec<_> = (0..STEPS)
                            .map(|_| {
                                filter.stage(next, 0, &spills[..1], Some((&mut *pass, &mut masks)))
                            })
                            .collect();
                        assert!(steps[..STEPS - 1].iter().all(Option::is_none));
                        steps[STEPS - 1].expect("the last step")
                    } else {
                        filter.finish(pass, &mut masks)
                    };
                    for (i, w) in batch[from..].iter().enumerate() {
                        let mask = dv_mask_reference(w);
                        assert_eq!(got >> i & 1 != 0, mask != 0, "round {round} at {at}+{i}");
                        assert_eq!(masks[i], mask, "round {round} at {at}+{i}");
                    }
                    assert_eq!(got >> spills.len(), 0);
                }
            }
        }
    }
}
