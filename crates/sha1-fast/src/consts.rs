//! The constants of FIPS 180-4, shared by every core and the reference.

/// Initial hash value H(0) (FIPS 180-4 §5.3.1).
///
/// ```
/// let mut state = sha1_fast::INITIAL_STATE;
/// sha1_fast::compress(&mut state, &[]); // no blocks, no change
/// assert_eq!(state[0], 0x6745_2301);
/// ```
pub const INITIAL_STATE: [u32; 5] = [
    0x6745_2301,
    0xEFCD_AB89,
    0x98BA_DCFE,
    0x1032_5476,
    0xC3D2_E1F0,
];

/// Round constants K for rounds 0–19, 20–39, 40–59 and 60–79 (§4.2.1):
/// the square roots of 2, 3, 5 and 10, times 2^30.
///
/// ```
/// assert_eq!(sha1_fast::reference::K[0], (2f64.sqrt() * (1u64 << 30) as f64) as u32);
/// ```
pub const K: [u32; 4] = [0x5A82_7999, 0x6ED9_EBA1, 0x8F1B_BCDC, 0xCA62_C1D6];
