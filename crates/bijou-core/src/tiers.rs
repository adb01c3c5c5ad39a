//! Dispatch on a value's tier, shared by the per-value and batch decoders:
//! one `match` arm per tier, each a call with the tier as a constant, so
//! every arm's length, shift and offset are known where it is compiled.

/// Calls `$f::<t>($args…)` for the tier `t` in `1..=TIERS` held in `$tier`
/// (a `u8`): one match arm per tier, so each arm's constants are known. The
/// top tier is the default arm rather than a jump-table entry: uniformly
/// random values (hashes, ids) are almost all top-tier, and the switch's
/// range check then sends them there with one predictable branch. Arms for
/// tiers at or above the width's `TIERS` are ruled out by their guards.
macro_rules! by_tier {
    ($tier:expr, $f:ident, $($arg:expr),+) => {
        match usize::from($tier) {
            1 if 1 < TIERS => $f::<1>($($arg),+),
            2 if 2 < TIERS => $f::<2>($($arg),+),
            3 if 3 < TIERS => $f::<3>($($arg),+),
            4 if 4 < TIERS => $f::<4>($($arg),+),
            5 if 5 < TIERS => $f::<5>($($arg),+),
            6 if 6 < TIERS => $f::<6>($($arg),+),
            7 if 7 < TIERS => $f::<7>($($arg),+),
            8 if 8 < TIERS => $f::<8>($($arg),+),
            9 if 9 < TIERS => $f::<9>($($arg),+),
            10 if 10 < TIERS => $f::<10>($($arg),+),
            11 if 11 < TIERS => $f::<11>($($arg),+),
            12 if 12 < TIERS => $f::<12>($($arg),+),
            13 if 13 < TIERS => $f::<13>($($arg),+),
            14 if 14 < TIERS => $f::<14>($($arg),+),
            15 if 15 < TIERS => $f::<15>($($arg),+),
            _ => $f::<TIERS>($($arg),+),
        }
    };
}

pub(crate) use by_tier;
