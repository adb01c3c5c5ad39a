//! Batch encoding and decoding, stamped out inside each unsigned width
//! module by [`batch_codec!`].
//!
//! Batches are where the format's shape pays: a batch sees many values, so it
//! can classify runs of single-byte values several at a time and pick, block
//! by block, between a branchy loop (fast when value lengths repeat, because
//! the branch predictor then runs ahead of the length chain) and a branch-free
//! loop (fast when lengths are unpredictable, because nothing mispredicts).
//! The branch-free loop is a vector path where the CPU has one for the
//! width (`crate::simd`), else two walks at once (`crate::chains`), and one
//! walk for the last values. Blocks whose tiers repeat with a short period
//! (records of fixed fields, `crate::periodic`) go to a periodic loop: a
//! vector record loop, or a per-value loop the branch predictor learns.

/// Below this many values (or input bytes), `decode_batch` decodes value
/// by value: choosing and setting up the adaptive blocks costs more than
/// they save on so few values.
pub(crate) const SHORT_BATCH: usize = 256;

/// Generates `encode_batch` and `decode_batch` for one unsigned width. It
/// expands inside the width module and uses its private items.
macro_rules! batch_codec {
    ($name:ident: $uint:ty, example $example:literal => $example_bytes:tt) => {
        /// Values decoded per block before the batch decoder reconsiders
        /// which loop to use.
        const ADAPT_BLOCK: usize = 128;

        /// Values decoded per block by the unpredictable-length loop.
        const UNPREDICTABLE_BLOCK: usize = 4 * ADAPT_BLOCK;

        /// A block switches to the branch-free loop when more than this many
        /// of its values changed length from the previous one: beyond it the
        /// branchy loop's mispredictions cost more than the branch-free
        /// loop's longer dependency chain.
        const MAX_PREDICTABLE_CHANGES: usize = ADAPT_BLOCK / 8;

        /// Values in the batch's first block, on the branchy loop: enough
        /// to choose the next block's loop, few enough that unpredictable
        /// data (where that loop mispredicts at every value) pays little.
        const FIRST_BLOCK: usize = 16;

        /// Bytes that a single-byte run test looks at together.
        const RUN: usize = 16;

        /// Whether every byte of `bytes` is a single-byte value (below
        /// THRESHOLD). THRESHOLD is `256 - TIERS` with TIERS a power of two,
        /// so a byte is a tag exactly when its top `THRESHOLD.leading_ones()`
        /// bits are all set; shifting by 1.. brings each of those bits to the
        /// byte's top bit, without crossing into the next byte.
        #[inline(always)]
        fn all_single_bytes(bytes: &[u8; RUN]) -> bool {
            let word = u128::from_le_bytes(*bytes);
            let mut tags = word;
            let mut shift = 1;
            while shift < THRESHOLD.leading_ones() {
                tags &= word << shift;
                shift += 1;
            }
            tags & u128::from_le_bytes([0x80; RUN]) == 0
        }

        /// Copies runs of single-byte values, `RUN` at a time, from the
        /// front of `input` to `out`; returns how many values it copied.
        #[inline(always)]
        fn copy_single_byte_runs(input: &[u8], out: &mut [$uint]) -> usize {
            // Whole steps on the vector path, where there is one.
            let mut copied = <$uint as crate::simd::VectorBatch>::copy_single_bytes(input, out);
            while let (Some(bytes), Some(dest)) =
                (input[copied..].first_chunk::<RUN>(), out[copied..].first_chunk_mut::<RUN>())
            {
                if !all_single_bytes(bytes) {
                    break;
                }
                for (dest, &byte) in dest.iter_mut().zip(bytes) {
                    *dest = <$uint>::from(byte);
                }
                copied += RUN;
            }
            copied
        }

        /// Decodes one value from a full block with no branch on its tier:
        /// (value, length, overflowed).
        #[inline(always)]
        fn decode_branch_free(block: &[u8; MAX_BYTES]) -> ($uint, usize, bool) {
            let [tag, payload @ ..] = *block;
            let word = <$uint>::from_be_bytes(payload);
            // The length by a max (compare and conditional move) and a
            // subtraction that folds into the caller's `consumed + len`:
            // the shortest chain from one value's tag to the next's.
            let len = (tag as usize).max(THRESHOLD as usize - 1) - (THRESHOLD as usize - 2);
            let tier = len - 1;
            let single_byte = ((tier == 0) as $uint).wrapping_neg();
            // Tier 0 would shift by the full width: the count wraps (x86
            // masks it anyway, so this is one shift) and the mask clears
            // what is left, so a single byte's payload is 0 and cannot
            // overflow; the add's carry alone is the overflow flag.
            let payload = word.wrapping_shr((8 * (TIERS - tier)) as u32) & !single_byte;
            let (sum, overflowed) = offset_of(tier).overflowing_add(payload);
            (sum | (tag as $uint & single_byte), len, overflowed)
        }

        /// How far one block of the batch decoder got.
        #[derive(Default)]
        struct BlockProgress {
            consumed: usize,
            written: usize,
            /// Places where a value's length differed from the previous
            /// value's (runs of equal lengths, for the branchy loop).
            length_changes: usize,
            /// The value at `consumed` overflowed.
            overflowed: bool,
        }

        /// Decodes the run of values at the front of `input` that share the
        /// tag `tag` of tier `T`, while a whole block is left: constant
        /// length and shift, one predictable branch per value, so the loads
        /// of successive values overlap. Returns (consumed, written,
        /// overflowed).
        #[inline(always)]
        fn decode_tier_run<const T: usize>(input: &[u8], out: &mut [$uint], tag: u8) -> (usize, usize, bool) {
            let tier = if T > TIERS { TIERS } else { T };
            let (mut consumed, mut written) = (0, 0);
            while written < out.len() {
                let Some(block) = input[consumed..].first_chunk::<MAX_BYTES>() else { break };
                let [this_tag, payload @ ..] = *block;
                if this_tag != tag {
                    break;
                }
                let (value, len) = tier_value::<T>(<$uint>::from_be_bytes(payload));
                let Some(value) = value else {
                    return (consumed, written, true);
                };
                out[written] = value;
                written += 1;
                consumed += len;
            }
            debug_assert!(written == 0 || consumed == written * (1 + tier));
            (consumed, written, false)
        }

        /// Decodes up to `limit` values while a whole MAX_BYTES block is
        /// left, run by run: a run of single bytes (`RUN` at a time where
        /// possible) or a run of one multi-byte tier. Fast when lengths
        /// repeat; each new run costs a mispredicted branch.
        #[inline(never)]
        fn decode_block_branchy(input: &[u8], start: usize, out: &mut [$uint], limit: usize) -> BlockProgress {
            let input = &input[start..];
            let mut progress = BlockProgress::default();
            let limit = limit.min(out.len());
            while progress.written < limit {
                let rest = &input[progress.consumed..];
                let Some(block) = rest.first_chunk::<MAX_BYTES>() else { break };
                let (consumed, written, overflowed) = if block[0] < THRESHOLD {
                    let dest = &mut out[progress.written..limit];
                    let copied = copy_single_byte_runs(rest, dest);
                    let mut single = copied;
                    while single < dest.len() && single < rest.len() && rest[single] < THRESHOLD {
                        dest[single] = <$uint>::from(rest[single]);
                        single += 1;
                    }
                    (single, single, false)
                } else {
                    // Whole groups of the run on the vector path, where
                    // there is one, past `limit` while the run lasts (a
                    // run is predictable however long); the scalar loop
                    // ends the run.
                    let vector = <$uint as crate::simd::VectorBatch>::decode_run(rest, &mut out[progress.written..], block[0]);
                    let (vector_consumed, vector_written) = (vector.consumed, vector.written);
                    progress.length_changes += vector.length_changes;
                    let dest = &mut out[progress.written..limit.max(progress.written + vector_written)];
                    let (consumed, written, overflowed) = crate::tiers::by_tier!(
                        block[0] - (THRESHOLD - 1),
                        decode_tier_run,
                        &rest[vector_consumed..],
                        &mut dest[vector_written..],
                        block[0]
                    );
                    (vector_consumed + consumed, vector_written + written, overflowed)
                };
                progress.consumed += consumed;
                progress.written += written;
                progress.length_changes += 1;
                if overflowed {
                    progress.overflowed = true;
                    break;
                }
            }
            progress
        }

        /// Like [`decode_block_branchy`] but with no branch on the tier:
        /// one walk, for the values the faster loops leave.
        #[inline(never)]
        fn decode_block_branch_free(input: &[u8], start: usize, out: &mut [$uint], limit: usize) -> BlockProgress {
            let mut progress = BlockProgress::default();
            let mut previous_len = 0;
            let limit = limit.min(out.len());
            while progress.written < limit {
                let Some(block) = input[start + progress.consumed..].first_chunk::<MAX_BYTES>() else { break };
                let (value, len, overflowed) = decode_branch_free(block);
                if overflowed {
                    progress.overflowed = true;
                    break;
                }
                out[progress.written] = value;
                progress.written += 1;
                progress.consumed += len;
                progress.length_changes += (len != previous_len) as usize;
                previous_len = len;
            }
            progress
        }

        crate::chains::two_walk_loop!($uint);

        /// The unpredictable-length loop: the width's vector path where
        /// the CPU has one (`crate::simd`), else two walks at once
        /// (`crate::chains`), whole windows at a time; then
        /// [`decode_block_branch_free`] for what they leave (the last
        /// values before the end of the input, or a window holding an
        /// overflow, which that loop reports at its place).
        #[inline(never)]
        fn decode_block_unpredictable(input: &[u8], start: usize, out: &mut [$uint], limit: usize) -> BlockProgress {
            let fast = match <$uint as crate::simd::VectorBatch>::decode_windows(&input[start..], out, limit) {
                Some(vector) => BlockProgress {
                    consumed: vector.consumed,
                    written: vector.written,
                    length_changes: vector.length_changes,
                    overflowed: false,
                },
                None => decode_two_walks(input, start, out, limit),
            };
            // The fast loops may have gone past `limit`, never past `out`.
            let left = limit.min(out.len()).saturating_sub(fast.written);
            let rest = decode_block_branch_free(input, start + fast.consumed, &mut out[fast.written..], left);
            BlockProgress {
                consumed: fast.consumed + rest.consumed,
                written: fast.written + rest.written,
                length_changes: fast.length_changes + rest.length_changes,
                overflowed: rest.overflowed,
            }
        }

        /// A per-value loop through [`decode`]'s branches, for periodic
        /// blocks where the CPU has no record loop: the branch predictor
        /// learns a fixed pattern of tiers, so successive values' loads
        /// overlap and nothing mispredicts.
        #[inline(never)]
        fn decode_block_predicted(input: &[u8], start: usize, out: &mut [$uint], limit: usize) -> BlockProgress {
            let mut progress = BlockProgress::default();
            let limit = limit.min(out.len());
            while progress.written < limit {
                let rest = &input[start + progress.consumed..];
                if rest.len() < MAX_BYTES {
                    break;
                }
                // With a whole block left, the only error is an overflow.
                let Ok((value, len)) = decode(rest) else {
                    progress.overflowed = true;
                    break;
                };
                out[progress.written] = value;
                progress.written += 1;
                progress.consumed += len;
            }
            progress
        }

        /// The periodic loop: records of `plan` on the CPU's record loop
        /// while their tags repeat (it repairs a step that differs once).
        /// Where it stops short (a second step in a row that differs, an
        /// overflow), one more step goes through [`decode_block_branch_free`],
        /// which reports an overflow at its place, and the block ends, for
        /// the chooser to look for the period again. The last values before
        /// the end of the input or of `out` go through the one-walk loop
        /// too.
        #[inline(never)]
        fn decode_block_records(
            input: &[u8],
            start: usize,
            out: &mut [$uint],
            limit: usize,
            plan: &crate::simd::RecordPlan,
        ) -> BlockProgress {
            let limit = limit.min(out.len());
            let (consumed, written) =
                <$uint as crate::simd::VectorBatch>::decode_records(&input[start..], out, limit, plan);
            if written >= limit {
                return BlockProgress { consumed, written, ..BlockProgress::default() };
            }
            let at = start + consumed;
            let near_end = input.len() - at < crate::periodic::MAX_RECORD_BYTES
                || out.len() - written < plan.values;
            // One step, or everything up to the end.
            let left = if near_end { limit - written } else { plan.values.min(limit - written) };
            let rest = decode_block_branch_free(input, at, &mut out[written..], left);
            BlockProgress {
                consumed: consumed + rest.consumed,
                written: written + rest.written,
                overflowed: rest.overflowed,
                ..BlockProgress::default()
            }
        }

        /// How far [`decode_batch_blocks`] got: named, because the public
        /// [`decode_batch`] returns the same two counts the other way round.
        struct BatchProgress {
            /// Bytes of the input decoded.
            consumed: usize,
            /// Values written to the output.
            written: usize,
        }

        /// The loop a block of the batch runs on.
        // One per `decode_batch` call, on its stack: the plan's size is
        // what the chooser would keep beside a smaller enum anyway.
        #[allow(clippy::large_enum_variant)]
        enum BlockLoop {
            Branchy,
            Unpredictable,
            /// Periodic, on the CPU's record loop, with its plan.
            Records(crate::simd::RecordPlan),
            /// Periodic, where the CPU has no record loop.
            Predicted,
        }

        /// Values per block of the predicted loop: it checks no tags, so
        /// the search that chose it is repeated this often, at a cost
        /// small against the block.
        const PREDICTED_BLOCK: usize = 4 * UNPREDICTABLE_BLOCK;

        /// Values decoded after a search for a period that failed before
        /// the next search: a search walks the tags of a few values, a
        /// cost kept small against unpredictable blocks.
        const SEARCH_BACKOFF: usize = 8 * UNPREDICTABLE_BLOCK;

        /// The periodic loop for the values at the front of `input`, if
        /// their tiers repeat with a short period: the record loop where
        /// this width and CPU have one, else the predicted loop. Out of
        /// line: it runs once in many blocks.
        #[inline(never)]
        fn search_period(input: &[u8]) -> Option<BlockLoop> {
            let period = crate::periodic::find(input, THRESHOLD)?;
            Some(match <$uint as crate::simd::VectorBatch>::record_plan(&period) {
                Some(plan) => BlockLoop::Records(plan),
                None => BlockLoop::Predicted,
            })
        }

        /// The fast phase of [`decode_batch`]: decodes block by block while
        /// whole MAX_BYTES blocks are left, choosing each block's loop from
        /// how predictable the previous block's lengths were and, when
        /// they were not, whether the tiers ahead repeat with a short
        /// period. The last few values are left to the tail.
        #[inline(always)]
        fn decode_batch_blocks(input: &[u8], out: &mut [$uint]) -> Result<BatchProgress, BatchDecodeError> {
            let (mut consumed, mut written) = (0, 0);
            let mut block_loop = BlockLoop::Branchy;
            let mut first = true;
            // Values written when a search for a period may run again.
            let mut search_from = 0;
            // A batch that starts with a record need not wait for the
            // first block (which mispredicts at every field) to find it.
            let looks_for_periods = <$uint as crate::simd::VectorBatch>::looks_for_periods();
            if looks_for_periods && crate::periodic::starts_mixed(input, THRESHOLD) {
                match search_period(input) {
                    Some(periodic) => block_loop = periodic,
                    None => search_from = SEARCH_BACKOFF,
                }
            }
            while written < out.len() {
                let run = copy_single_byte_runs(&input[consumed..], &mut out[written..]);
                consumed += run;
                written += run;
                if written == out.len() {
                    break;
                }
                // Unpredictable blocks run longer: their loop's set-up
                // (the vector path's constants) is paid per block; the
                // record loop runs while its period holds.
                let block = match (&block_loop, first) {
                    (BlockLoop::Branchy, true) => FIRST_BLOCK,
                    (BlockLoop::Branchy, false) => ADAPT_BLOCK,
                    (BlockLoop::Unpredictable, _) => UNPREDICTABLE_BLOCK,
                    (BlockLoop::Predicted, _) => PREDICTED_BLOCK,
                    (BlockLoop::Records(_), _) => out.len() - written,
                };
                first = false;
                let wanted = block.min(out.len() - written);
                let dest = &mut out[written..];
                let progress = match &block_loop {
                    BlockLoop::Branchy => decode_block_branchy(input, consumed, dest, wanted),
                    BlockLoop::Records(plan) => decode_block_records(input, consumed, dest, wanted, plan),
                    BlockLoop::Predicted => decode_block_predicted(input, consumed, dest, wanted),
                    BlockLoop::Unpredictable => decode_block_unpredictable(input, consumed, dest, wanted),
                };
                consumed += progress.consumed;
                written += progress.written;
                if progress.overflowed {
                    return Err(BatchDecodeError::Overflow { offset: consumed, written });
                }
                if input.len() - consumed < MAX_BYTES {
                    break; // fewer than MAX_BYTES bytes left: the tail's job
                }
                // The rate, as a vector path may go past `wanted`. The
                // periodic loops do not count lengths: after them, the
                // tiers ahead decide.
                let branchy = match block_loop {
                    BlockLoop::Branchy | BlockLoop::Unpredictable => {
                        progress.length_changes * ADAPT_BLOCK <= MAX_PREDICTABLE_CHANGES * progress.written
                    }
                    BlockLoop::Records(_) | BlockLoop::Predicted => false,
                };
                block_loop = if branchy {
                    BlockLoop::Branchy
                } else if written < search_from || !looks_for_periods {
                    BlockLoop::Unpredictable
                } else {
                    search_period(&input[consumed..]).unwrap_or_else(|| {
                        search_from = written + SEARCH_BACKOFF;
                        BlockLoop::Unpredictable
                    })
                };
            }
            Ok(BatchProgress { consumed, written })
        }

        /// Decodes consecutive values from `input` into `out` until `out`
        /// is full or `input` runs out, returning (values written, bytes
        /// consumed).
        ///
        /// A value cut off at the end of `input` is not an error: it is
        /// left unconsumed, so a streaming caller can keep
        /// `input[consumed..]`, append more bytes and call again. Slots of
        /// `out` past the values written may have been overwritten.
        ///
        /// # Errors
        ///
        /// [`BatchDecodeError::Overflow`] with the byte offset of the
        /// offending value and the number of values written before it.
        ///
        /// # Examples
        ///
        /// ```
        #[doc = concat!("use bijou_core::", stringify!($name), ";")]
        ///
        #[doc = concat!("let mut input = vec![0x01];")]
        #[doc = concat!("input.extend_from_slice(&", stringify!($example_bytes), ");")]
        /// input.push(0xFF); // a value whose payload has not arrived yet
        /// let mut out = [0; 8];
        #[doc = concat!("let (written, consumed) = ", stringify!($name), "::decode_batch(&input, &mut out)?;")]
        #[doc = concat!("assert_eq!(&out[..written], &[1, ", stringify!($example), "]);")]
        /// assert_eq!(consumed, input.len() - 1);
        /// # Ok::<(), bijou_core::BatchDecodeError>(())
        /// ```
        pub fn decode_batch(input: &[u8], out: &mut [$uint]) -> Result<(usize, usize), BatchDecodeError> {
            let BatchProgress { mut consumed, mut written } = if out.len().min(input.len()) < crate::batch::SHORT_BATCH {
                // A short batch: the blocks' set-up would cost more than
                // they save, so single-byte runs and then value by value.
                let run = copy_single_byte_runs(input, out);
                BatchProgress { consumed: run, written: run }
            } else {
                decode_batch_blocks(input, out)?
            };
            // The last values (all of a short batch's after its first
            // single-byte run, else those within MAX_BYTES of the end) one
            // at a time; a value cut off by the end of the input stays
            // unconsumed.
            while written < out.len() && consumed < input.len() {
                match decode(&input[consumed..]) {
                    Ok((value, len)) => {
                        out[written] = value;
                        written += 1;
                        consumed += len;
                    }
                    Err(DecodeError::Truncated { .. }) => break,
                    // In a short batch; after the blocks, which decode
                    // every value that starts MAX_BYTES or more before the
                    // end, an overflowing value (MAX_BYTES long) is not
                    // left here.
                    Err(DecodeError::Overflow) => {
                        return Err(BatchDecodeError::Overflow { offset: consumed, written });
                    }
                }
            }
            Ok((written, consumed))
        }

        /// Appends the encodings of `values` to `out`, one after another.
        ///
        /// # Examples
        ///
        /// ```
        #[doc = concat!("use bijou_core::", stringify!($name), ";")]
        ///
        /// let mut out = Vec::new();
        #[doc = concat!(stringify!($name), "::encode_batch(&[1, ", stringify!($example), ", 2], &mut out);")]
        #[doc = concat!("let mut values = [0; 3];")]
        #[doc = concat!("assert_eq!(", stringify!($name), "::decode_batch(&out, &mut values), Ok((3, out.len())));")]
        #[doc = concat!("assert_eq!(values, [1, ", stringify!($example), ", 2]);")]
        /// ```
        #[cfg(feature = "alloc")]
        pub fn encode_batch(values: &[$uint], out: &mut alloc::vec::Vec<u8>) {
            encode_batch_mapped(values, |value| value, out);
        }

        /// [`encode_batch`] of `values` mapped through `map`: the signed
        /// widths pass `zigzag`, so one loop serves both without a pass
        /// that zigzags into a buffer first.
        #[cfg(feature = "alloc")]
        #[inline(always)]
        pub(crate) fn encode_batch_mapped<T: Copy>(
            values: &[T],
            map: impl Fn(T) -> $uint,
            out: &mut alloc::vec::Vec<u8>,
        ) {
            // Encode into a stack block, a whole MAX_BYTES block per value (a
            // fixed-size copy), then append the block in one copy. The
            // scratch length is a power of two so that `offset % SCRATCH`
            // proves every write in bounds and the loop has no bounds checks.
            const SCRATCH: usize = 4096;
            const GROUP: usize = 8;
            const CHUNK: usize = SCRATCH / MAX_BYTES / GROUP * GROUP;
            let mut scratch = [0u8; SCRATCH + MAX_BYTES + GROUP];
            out.reserve(values.len());
            for chunk in values.chunks(CHUNK) {
                let mut offset = 0;
                for group in chunk.chunks(GROUP) {
                    // Eight single-byte values at once: each is below
                    // THRESHOLD iff it is below 256 and adding TIERS keeps it
                    // below 256 (the first test rules out wrap-around).
                    let single_bytes = group.iter().fold(0, |acc, &v| {
                        let v = map(v);
                        acc | v | v.wrapping_add(TIERS as $uint)
                    }) < 256;
                    if single_bytes && group.len() == GROUP {
                        let at = offset % SCRATCH;
                        for (dest, &value) in scratch[at..at + GROUP].iter_mut().zip(group) {
                            *dest = map(value) as u8;
                        }
                        offset = at + GROUP;
                        continue;
                    }
                    for &value in group {
                        let (bytes, len) = encode_array(map(value));
                        let at = offset % SCRATCH; // == offset: CHUNK blocks fit
                        scratch[at..at + MAX_BYTES].copy_from_slice(&bytes);
                        offset = at + len;
                    }
                }
                out.extend_from_slice(&scratch[..offset]);
            }
        }
    };
}

pub(crate) use batch_codec;
