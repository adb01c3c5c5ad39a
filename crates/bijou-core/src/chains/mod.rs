//! The portable loop for unpredictable lengths: two walks at once.
//!
//! Where value `k + 1` starts depends on value `k`'s tag, so a loop that
//! steps from value to value waits, every value, for a load, a compare, a
//! conditional move and an add: that chain, not the work on the value,
//! bounds the one-walk loop. This loop runs two independent walks in the
//! same iteration. The first starts at the next value; the second starts
//! at a guess, the first byte of the following window, and records where
//! each of its values started. When the first walk leaves its window, it
//! goes on until it lands on a recorded start: from there the two walks
//! read the same bytes the same way, so the second's values are the
//! stream's. A wrong guess reads payload bytes as tags, and most bytes
//! are one-byte values, so the guessed walk steps byte by byte until it
//! meets the true one, within a few values on real streams. If it never
//! does (a stream built to keep them apart), the first walk decodes the
//! whole window itself: the results are the same, only the time is lost.
//!
//! Each value is read backwards, as the word that ends at its last byte
//! (the tag of a one-byte value, else the payload's last byte): one mask
//! then keeps its payload bytes, or its tag, so no tier needs a case of
//! its own. That needs `TIERS - 1` bytes before every value, which the
//! view's look-back provides.

/// Generates the two-walk loop for one unsigned width; expands inside
/// `batch_codec!`, next to the other loops.
macro_rules! two_walk_loop {
    ($uint:ty) => {
        /// Bytes of the view before the first walk's first value: the word
        /// read for a value ends at its last byte and is `TIERS` long.
        pub(crate) const LOOK_BACK: usize = 16;
        const _: () = assert!(LOOK_BACK >= TIERS - 1);

        /// Bytes each walk covers in a round.
        pub(crate) const WALK_WINDOW: usize = 256;

        /// Keeps a view index in bounds; a word read at a masked index
        /// still ends inside the view, so no read needs a check.
        const VIEW_INDEX_MASK: usize =
            (LOOK_BACK + 2 * WALK_WINDOW + MAX_BYTES).next_power_of_two() - 1;

        /// Bytes a round looks at: the look-back, both windows, and the
        /// longest value that starts in the second.
        pub(crate) const VIEW: usize = VIEW_INDEX_MASK + 1 + TIERS;

        /// Values one round can write: each takes at least one byte of the
        /// two windows.
        pub(crate) const ROUND_VALUES: usize = 2 * WALK_WINDOW;

        /// Tables indexed by a value's length, padded to a power of two so
        /// that `len & (LEN_SLOTS - 1)` needs no check.
        const LEN_SLOTS: usize = (MAX_BYTES + 1).next_power_of_two();

        /// Bytes kept of the word that ends at a value's last byte: the tag
        /// for a one-byte value, else the payload.
        const KEEP_BY_LEN: [$uint; LEN_SLOTS] = {
            let mut masks = [0 as $uint; LEN_SLOTS];
            masks[1] = 0xFF;
            let mut len = 2;
            while len <= MAX_BYTES {
                masks[len] = <$uint>::MAX >> (8 * (MAX_BYTES - len));
                len += 1;
            }
            masks
        };

        /// The first value of each length's tier.
        const OFFSET_BY_LEN: [$uint; LEN_SLOTS] = {
            let mut offsets = [0 as $uint; LEN_SLOTS];
            let mut len = 1;
            while len <= MAX_BYTES {
                offsets[len] = OFFSETS[len - 1];
                len += 1;
            }
            offsets
        };

        /// The value that starts at `view[at]` (at least `LOOK_BACK` in):
        /// (value, where the next one starts, overflowed). No branch.
        #[inline(always)]
        fn walk_step(view: &[u8; VIEW], at: usize) -> ($uint, usize, bool) {
            let tag = view[at & VIEW_INDEX_MASK] as usize;
            // The shortest chain to the next start: the subtraction runs
            // beside the compare, then a conditional move and the add.
            let len = core::hint::select_unpredictable(
                tag >= THRESHOLD as usize,
                tag.wrapping_sub(THRESHOLD as usize - 2),
                1,
            );
            let end = at + len;
            // Never the fallback: a masked index leaves `TIERS` bytes.
            let word = view[(end - TIERS) & VIEW_INDEX_MASK..]
                .first_chunk()
                .map_or(0, |b| <$uint>::from_be_bytes(*b));
            let slot = len & (LEN_SLOTS - 1);
            let (value, overflowed) = OFFSET_BY_LEN[slot].overflowing_add(word & KEEP_BY_LEN[slot]);
            (value, end, overflowed)
        }

        /// What a round of [`decode_two_walks`] gave.
        struct Round {
            /// Bytes decoded from the round's first value.
            consumed: usize,
            written: usize,
            length_changes: usize,
            /// The first walk met an overflow at `consumed`: the caller's
            /// one-walk loop reports it there.
            stopped: bool,
        }

        /// The guessed walk's values and where each started, kept between
        /// rounds so that a round does not clear them.
        struct Guesses {
            values: [$uint; WALK_WINDOW],
            starts: [u16; WALK_WINDOW],
        }

        /// One round: the values that start in the two windows after the
        /// look-back, into `dest`.
        #[inline(always)]
        fn two_walk_round(
            view: &[u8; VIEW],
            dest: &mut [$uint; ROUND_VALUES],
            guesses: &mut Guesses,
        ) -> Round {
            let (first_end, second_end) = (LOOK_BACK + WALK_WINDOW, LOOK_BACK + 2 * WALK_WINDOW);
            let (mut a, mut b, mut n) = (LOOK_BACK, first_end, 0);
            // Counted on the first walk only: a sample is enough for the
            // caller's choice of loop, and the register it saves is not.
            let (mut a_len, mut length_changes) = (0, 0);
            while a < first_end && b < second_end {
                let (a_value, a_next, a_overflowed) = walk_step(view, a);
                let (b_value, b_next, b_overflowed) = walk_step(view, b);
                if a_overflowed | b_overflowed {
                    if a_overflowed {
                        return Round {
                            consumed: a - LOOK_BACK,
                            written: n,
                            length_changes,
                            stopped: true,
                        };
                    }
                    break; // the guess ends here; the first walk goes on
                }
                dest[n % ROUND_VALUES] = a_value;
                guesses.values[n % WALK_WINDOW] = b_value;
                guesses.starts[n % WALK_WINDOW] = b as u16;
                n += 1;
                length_changes += (a_next - a != a_len) as usize;
                a_len = a_next - a;
                (a, b) = (a_next, b_next);
            }
            let (mut written, mut guessed) = (n, n);
            while b < second_end {
                let (b_value, b_next, b_overflowed) = walk_step(view, b);
                if b_overflowed {
                    break;
                }
                guesses.values[guessed % WALK_WINDOW] = b_value;
                guesses.starts[guessed % WALK_WINDOW] = b as u16;
                guessed += 1;
                b = b_next;
            }
            // The first walk goes on until it meets a guessed start, or
            // through the second window if it never does.
            let mut meet = 0;
            while a < second_end {
                while meet < guessed && usize::from(guesses.starts[meet % WALK_WINDOW]) < a {
                    meet += 1;
                }
                if meet < guessed && usize::from(guesses.starts[meet % WALK_WINDOW]) == a {
                    let kept = &guesses.values[meet..guessed];
                    if let Some(to) = dest.get_mut(written..written + kept.len()) {
                        to.copy_from_slice(kept);
                        written += kept.len();
                        a = b;
                    }
                    break;
                }
                let (a_value, a_next, a_overflowed) = walk_step(view, a);
                if a_overflowed {
                    return Round {
                        consumed: a - LOOK_BACK,
                        written,
                        length_changes,
                        stopped: true,
                    };
                }
                dest[written % ROUND_VALUES] = a_value;
                written += 1;
                a = a_next;
            }
            Round {
                consumed: a - LOOK_BACK,
                written,
                length_changes,
                stopped: false,
            }
        }

        /// Decodes values from `input[start..]` (`start` at least
        /// `LOOK_BACK`) into `out` by rounds of two walks, until `limit`
        /// values are written (the last round may go past it, never past
        /// `out`), fewer than a round's bytes or slots are left, or a
        /// round meets an overflow. The one-walk loop takes over from
        /// where it stops.
        #[inline(never)]
        fn decode_two_walks(
            input: &[u8],
            start: usize,
            out: &mut [$uint],
            limit: usize,
        ) -> BlockProgress {
            let mut progress = BlockProgress::default();
            let mut guesses = Guesses {
                values: [0; WALK_WINDOW],
                starts: [0; WALK_WINDOW],
            };
            while progress.written < limit {
                let view_start = (start + progress.consumed).checked_sub(LOOK_BACK);
                let Some(view) = view_start.and_then(|at| input.get(at..)?.first_chunk::<VIEW>())
                else {
                    break;
                };
                let Some(dest) = out
                    .get_mut(progress.written..)
                    .and_then(|o| o.first_chunk_mut())
                else {
                    break;
                };
                let round = two_walk_round(view, dest, &mut guesses);
                progress.consumed += round.consumed;
                progress.written += round.written;
                progress.length_changes += round.length_changes;
                if round.stopped {
                    break;
                }
            }
            progress
        }

        /// [`decode_two_walks`] for the crate's tests: (consumed, written).
        #[cfg(test)]
        pub(crate) fn two_walks(
            input: &[u8],
            start: usize,
            out: &mut [$uint],
            limit: usize,
        ) -> (usize, usize) {
            let progress = decode_two_walks(input, start, out, limit);
            (progress.consumed, progress.written)
        }
    };
}

pub(crate) use two_walk_loop;

#[cfg(test)]
mod tests;
