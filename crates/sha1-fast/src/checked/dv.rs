//! The 32 disturbance vectors that collision detection checks (Manuel's
//! I(K, b) and II(K, b), as Stevens and Shumow's detection lists them), and
//! their message differences, derived at compile time: sixteen DV words
//! extended over 80 steps by the message recurrence, each local collision
//! cancelled at steps t+1..=t+5.

/// One disturbance vector, I(K, b) or II(K, b).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dv {
    pub(crate) second_type: bool,
    pub(crate) k: u8,
    pub(crate) b: u8,
}

pub(crate) const fn one(k: u8, b: u8) -> Dv {
    Dv {
        second_type: false,
        k,
        b,
    }
}

pub(crate) const fn two(k: u8, b: u8) -> Dv {
    Dv {
        second_type: true,
        k,
        b,
    }
}

/// The vectors checked, in the order the reference implementation tests
/// them (type, then K, then b): when two match one block, the first one
/// decides, as there.
pub(crate) const DVS: [Dv; 32] = [
    one(43, 0),
    one(44, 0),
    one(45, 0),
    one(46, 0),
    one(46, 2),
    one(47, 0),
    one(47, 2),
    one(48, 0),
    one(48, 2),
    one(49, 0),
    one(49, 2),
    one(50, 0),
    one(50, 2),
    one(51, 0),
    one(51, 2),
    one(52, 0),
    two(45, 0),
    two(46, 0),
    two(46, 2),
    two(47, 0),
    two(48, 0),
    two(49, 0),
    two(49, 2),
    two(50, 0),
    two(50, 2),
    two(51, 0),
    two(51, 2),
    two(52, 0),
    two(53, 0),
    two(54, 0),
    two(55, 0),
    two(56, 0),
];

impl Dv {
    /// The step whose state the recompression starts from: after the
    /// vector's last disturbance in the first 58 steps for K below 50,
    /// else after step 65.
    pub(crate) const fn test_step(self) -> usize {
        if self.k < 50 { 58 } else { 65 }
    }

    /// This vector's bit in a filter mask ([`crate::checked::ubc`]): each
    /// family (type and b) has a run of bits in order of K, so that one
    /// shift lines up a condition with every vector of a family at once.
    pub(crate) const fn mask_bit(self) -> u64 {
        let (base, first_k) = match (self.second_type, self.b) {
            (false, 0) => (0, 43),
            (false, _) => (10, 46),
            (true, 0) => (16, 45),
            (true, _) => (28, 46),
        };
        1 << (base + self.k - first_k)
    }

    /// The DV's 80 words, with five more before step 0 (index t + 5).
    const fn words(self) -> [u32; 85] {
        let mut dv = [0u32; 85];
        let last = self.k as usize + 15;
        dv[last + 5] = 1 << self.b;
        if self.second_type {
            let rotated = (1u32 << self.b).rotate_right(1);
            dv[self.k as usize + 1 + 5] = rotated;
            dv[self.k as usize + 3 + 5] = rotated;
        }
        // Forwards: W_t = rotl1(W_{t-3} ^ W_{t-8} ^ W_{t-14} ^ W_{t-16}).
        let mut t = last + 1;
        while t < 80 {
            dv[t + 5] = (dv[t + 2] ^ dv[t - 3] ^ dv[t - 9] ^ dv[t - 11]).rotate_left(1);
            t += 1;
        }
        // Backwards, the same recurrence solved for W_{t-16}.
        let mut t = self.k as usize + 5; // index of the step before the zero run
        while t > 0 {
            t -= 1;
            dv[t] = dv[t + 16].rotate_right(1) ^ dv[t + 13] ^ dv[t + 8] ^ dv[t + 2];
        }
        dv
    }

    /// The message XOR difference of a pair that follows this DV.
    const fn message_difference(self) -> [u32; 80] {
        let dv = self.words();
        let mut dm = [0u32; 80];
        let mut t = 0;
        while t < 80 {
            let i = t + 5;
            dm[t] = dv[i]
                ^ dv[i - 1].rotate_left(5)
                ^ dv[i - 2]
                ^ dv[i - 3].rotate_right(2)
                ^ dv[i - 4].rotate_right(2)
                ^ dv[i - 5].rotate_right(2);
            t += 1;
        }
        dm
    }
}

/// [`DVS`]' message differences, in the same order.
pub(crate) static MESSAGE_DIFFERENCES: [[u32; 80]; 32] = {
    let mut all = [[0u32; 80]; 32];
    let mut i = 0;
    while i < DVS.len() {
        all[i] = DVS[i].message_difference();
        i += 1;
    }
    all
};

#[cfg(test)]
mod tests {
    use super::{DVS, MESSAGE_DIFFERENCES};

    /// Every difference is itself an expanded message (the XOR of two
    /// expansions is one), and the vectors' mask bits are distinct.
    #[test]
    fn differences_follow_the_expansion_and_bits_are_distinct() {
        for dm in &MESSAGE_DIFFERENCES {
            for t in 16..80 {
                assert_eq!(
                    dm[t],
                    (dm[t - 3] ^ dm[t - 8] ^ dm[t - 14] ^ dm[t - 16]).rotate_left(1)
                );
            }
        }
        let all = DVS.iter().fold(0u64, |seen, dv| {
            assert_eq!(seen & dv.mask_bit(), 0, "{dv:?}");
            seen | dv.mask_bit()
        });
        assert_eq!(all.count_ones(), 32);
    }

    /// Spot values of the published tables (sha1collisiondetection's
    /// `sha1_dvs`): the first and last words of I(43,0), the first
    /// vector, and of II(52,0), the one by which both the SHAttered and
    /// the Shambles blocks are flagged.
    #[test]
    fn differences_match_published_words() {
        let at = |k, second| {
            DVS.iter()
                .position(|d| d.k == k && d.b == 0 && d.second_type == second)
                .unwrap()
        };
        let i43 = &MESSAGE_DIFFERENCES[at(43, false)];
        assert_eq!(
            [i43[0], i43[1], i43[58], i43[79]],
            [0x0800_0000, 0x9800_000C, 0x0000_0001, 0x8000_0599]
        );
        let ii52 = &MESSAGE_DIFFERENCES[at(52, true)];
        assert_eq!(
            [ii52[0], ii52[1], ii52[79]],
            [0x0C00_0002, 0xC000_0010, 0x0000_0014]
        );
    }
}
