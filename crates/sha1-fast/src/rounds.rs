//! The SHA-1 round (FIPS 180-4 §6.1.2), written once for every kernel that
//! runs it on general-purpose words or lanes of them: the scalar core and
//! checked kernel, the SIMD-schedule kernel, the AVX2 and AVX-512 lanes.
//! Each caller names a macro spelling its word's operations (`op!(add, x,
//! y)`, `xor`, `and`, `or`, `op!(rol, x, n)`); [`u32_op`] is the `u32` one.
//! The expression shapes fix which operations start before `b` is ready
//! (`docs/sha1.md`).

/// The `u32` operations, for [`round!`] and [`ring_block!`].
macro_rules! u32_op {
    (add, $x:expr, $y:expr) => {
        $x.wrapping_add($y)
    };
    (xor, $x:expr, $y:expr) => {
        $x ^ $y
    };
    (and, $x:expr, $y:expr) => {
        $x & $y
    };
    (or, $x:expr, $y:expr) => {
        $x | $y
    };
    (rol, $x:expr, $n:literal) => {
        $x.rotate_left($n)
    };
}

/// f_t(b, c, d), chosen by name:
/// - `ch`: Ch = (b ∧ c) ⊕ (¬b ∧ d) as d ⊕ (b ∧ (c ⊕ d)), three operations;
/// - `parity`: b ⊕ c ⊕ d, with `c ⊕ d` first;
/// - `maj`: Maj = (b ∧ c) ⊕ (b ∧ d) ⊕ (c ∧ d) as (b ∧ (c ∨ d)) ∨ (c ∧ d),
///   four operations.
///
/// In each, only the last one or two operations wait for `b`.
macro_rules! f {
    (ch, $op:ident, $b:expr, $c:expr, $d:expr) => {
        $op!(xor, $d, $op!(and, $b, $op!(xor, $c, $d)))
    };
    (parity, $op:ident, $b:expr, $c:expr, $d:expr) => {
        $op!(xor, $op!(xor, $c, $d), $b)
    };
    (maj, $op:ident, $b:expr, $c:expr, $d:expr) => {
        $op!(or, $op!(and, $b, $op!(or, $c, $d)), $op!(and, $c, $d))
    };
}

/// One round with f_t named by `$f` and W_t + K_t given as `$wk`, folded
/// into `$e`; `$b` is rotated in place. The caller renames the variables
/// for the next round ([a b c d e] → [e a b c d]) instead of moving them.
///
/// `e + (W + K) + f` is summed before `rotl5(a)` is added, so the round's
/// critical path (a → rotl5 → add → next a) is two operations.
macro_rules! round {
    ($op:ident, $f:ident, $wk:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        $e = $op!(
            add,
            $op!(
                add,
                $op!(add, $e, $wk),
                $crate::rounds::f!($f, $op, $b, $c, $d)
            ),
            $op!(rol, $a, 5)
        );
        $b = $op!(rol, $b, 30);
    };
}

/// Round `$t` of a block whose schedule lives in a ring `$w` of 16
/// words, or of 80 to keep the whole schedule (the block's words at
/// first): from round 16 on, W_t first replaces W_{t−16} in its slot, or
/// fills its own. The ring's length is a constant, so every index folds
/// to a literal.
macro_rules! ring_round {
    ($op:ident, $w:ident, $t:literal, $f:ident, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        let n = $w.len();
        if $t >= 16 {
            $w[$t % n] = $op!(
                rol,
                $op!(
                    xor,
                    $op!(xor, $w[($t + n - 3) % n], $w[($t + n - 8) % n]),
                    $op!(xor, $w[($t + n - 14) % n], $w[($t + n - 16) % n])
                ),
                1
            );
        }
        $crate::rounds::round!($op, $f, $op!(add, $w[$t % n], $k), $a, $b, $c, $d, $e);
    };
}

/// [`ring_round!`] for a list of literal `t`s sharing f_t and K_t; after
/// each round the names shift by one ([a b c d e] → [e a b c d]), which
/// is the FIPS assignment chain done at compile time.
macro_rules! ring_rounds {
    ($op:ident, $w:ident, $f:ident, $k:expr, [$a:ident $b:ident $c:ident $d:ident $e:ident]; $t:literal $($rest:literal)*) => {
        $crate::rounds::ring_round!($op, $w, $t, $f, $k, $a, $b, $c, $d, $e);
        $crate::rounds::ring_rounds!($op, $w, $f, $k, [$e $a $b $c $d]; $($rest)*);
    };
    ($op:ident, $w:ident, $f:ident, $k:expr, [$($v:ident)*];) => {};
}

/// All 80 rounds of one block into the working variables `[$a … $e]`,
/// the schedule in the 16-word ring `$w`, the constants `$k0 … $k3`.
/// Each group of 20 rounds (a multiple of 5) ends with the names in place.
macro_rules! ring_block {
    ($op:ident, $w:ident, [$k0:expr, $k1:expr, $k2:expr, $k3:expr], [$a:ident $b:ident $c:ident $d:ident $e:ident]) => {
        $crate::rounds::ring_rounds!($op, $w, ch, $k0, [$a $b $c $d $e]; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
        $crate::rounds::ring_rounds!($op, $w, parity, $k1, [$a $b $c $d $e]; 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39);
        $crate::rounds::ring_rounds!($op, $w, maj, $k2, [$a $b $c $d $e]; 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59);
        $crate::rounds::ring_rounds!($op, $w, parity, $k3, [$a $b $c $d $e]; 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79);
    };
}

/// Rounds `$t…` (literals) on `u32`s, reading W_t + K_t from `$wk[$t]`
/// (an array of all 80); after each round the names are rebound
/// ([a b c d e] ← [new a rotl30(b) c d]), so that they always hold the
/// state. f_t is chosen by `t` at compile time (the conditions are
/// constants).
#[cfg(target_arch = "x86_64")]
macro_rules! stored_rounds {
    ($wk:expr, [$a:ident $b:ident $c:ident $d:ident $e:ident]; $($t:literal)*) => {
        $(
            if $t < 20 {
                $crate::rounds::round!(u32_op, ch, $wk[$t], $a, $b, $c, $d, $e);
            } else if $t < 40 || $t >= 60 {
                $crate::rounds::round!(u32_op, parity, $wk[$t], $a, $b, $c, $d, $e);
            } else {
                $crate::rounds::round!(u32_op, maj, $wk[$t], $a, $b, $c, $d, $e);
            }
            ($a, $b, $c, $d, $e) = ($e, $a, $b, $c, $d);
        )*
    };
}

#[cfg(target_arch = "x86_64")]
pub(crate) use stored_rounds;
pub(crate) use {f, ring_block, ring_round, ring_rounds, round, u32_op};
