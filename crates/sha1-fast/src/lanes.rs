//! Many messages through `N` interleaved streams ("lanes"): each lane
//! reads its message's full blocks in place, then its padded tail; a lane
//! that finishes takes the next message, and when fewer than `min_lanes`
//! are busy each finishes alone. [`run_flagging`] is the same loop for
//! kernels that can flag a message (an attack block); [`run`] flags none.

use crate::Digest;
use crate::INITIAL_STATE;
use crate::pad::Padded;

/// What an idle lane points at, so every slot of the block array is valid.
static IDLE: [u8; 64] = [0; 64];

/// Where one lane is in its message.
struct Cursor<'a> {
    /// Full blocks of the message not hashed yet.
    body: &'a [[u8; 64]],
    /// The padded end of the message.
    tail: Padded,
    /// Tail blocks already hashed.
    tail_done: usize,
    /// Which message this is, and so which digest slot it fills.
    index: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor with no message, until [`Cursor::start`].
    fn idle() -> Cursor<'a> {
        Cursor {
            body: &[],
            tail: Padded::EMPTY,
            tail_done: 0,
            index: usize::MAX,
        }
    }

    /// Points the cursor at `message`, number `index`, rewriting the tail
    /// buffer in place (see [`Padded::fill`]).
    #[inline(always)]
    fn start(&mut self, index: usize, message: &'a [u8]) {
        let (body, rest) = message.as_chunks::<64>();
        self.body = body;
        self.tail.fill(rest, message.len() as u64);
        self.tail_done = 0;
        self.index = index;
    }

    /// The next block to hash; the message always has one until
    /// [`Cursor::advance`] says it is finished.
    #[inline(always)]
    fn block(&self) -> &[u8; 64] {
        match self.body.first() {
            Some(block) => block,
            None => &self.tail.blocks()[self.tail_done],
        }
    }

    /// Steps past [`Cursor::block`]; true when that was the last block.
    #[inline(always)]
    fn advance(&mut self) -> bool {
        if let [_, rest @ ..] = self.body {
            self.body = rest;
            false
        } else {
            self.tail_done += 1;
            self.tail_done == self.tail.blocks().len()
        }
    }

    /// Hashes everything left with a single-stream compressor.
    #[inline(always)]
    fn finish<R>(
        &self,
        state: &mut [u32; 5],
        compress: &mut impl FnMut(&mut [u32; 5], &[&[[u8; 64]]]) -> R,
    ) -> R {
        compress(state, &[self.body, &self.tail.blocks()[self.tail_done..]])
    }
}

/// Hashes `messages[i]` into `out[i]`: `step(states, blocks, active)`
/// hashes `blocks[i]` into `states[i]` for every `i < active` (later
/// slots hold a zero block, which a kernel may hash or skip), `compress`
/// is the single-stream compressor. Inlined, so that a
/// `#[target_feature]` caller compiles all of it with its features.
#[inline(always)]
pub(crate) fn run<const N: usize>(
    messages: &[&[u8]],
    out: &mut [Digest],
    min_lanes: usize,
    mut step: impl FnMut(&mut [[u32; 5]; N], &[&[u8; 64]; N], usize),
    mut compress: impl FnMut(&mut [u32; 5], &[&[[u8; 64]]]),
) {
    run_flagging::<N, _>(
        messages,
        out,
        min_lanes,
        |states, blocks, active| {
            step(states, blocks, active);
            0
        },
        |state, parts| {
            compress(state, parts);
            false
        },
        |_, state, _| Digest::from_state(state),
    );
}

/// [`run`] for kernels that may flag a message (an attack block): `step`
/// returns the lanes it flags, `compress` whether it flagged its message,
/// and `finish(index, state, flagged)` makes message `index`'s result.
#[inline(always)]
pub(crate) fn run_flagging<const N: usize, T>(
    messages: &[&[u8]],
    out: &mut [T],
    min_lanes: usize,
    mut step: impl FnMut(&mut [[u32; 5]; N], &[&[u8; 64]; N], usize) -> u32,
    mut compress: impl FnMut(&mut [u32; 5], &[&[[u8; 64]]]) -> bool,
    mut finish: impl FnMut(usize, [u32; 5], bool) -> T,
) {
    debug_assert_eq!(messages.len(), out.len());
    debug_assert!((1..=N).contains(&min_lanes) && N <= 32);
    let mut pending = messages.iter().copied().enumerate();
    let mut states = [INITIAL_STATE; N];
    let mut flagged = [false; N];
    let mut cursors: [Cursor<'_>; N] = core::array::from_fn(|_| Cursor::idle());
    let mut active = 0;
    for cursor in &mut cursors {
        let Some((index, message)) = pending.next() else {
            break;
        };
        cursor.start(index, message);
        active += 1;
    }

    while active >= min_lanes {
        let mut blocks = [&IDLE; N];
        for (block, cursor) in blocks.iter_mut().zip(&cursors[..active]) {
            *block = cursor.block();
        }
        let mut new_flags = step(&mut states, &blocks, active);
        while new_flags != 0 {
            flagged[new_flags.trailing_zeros() as usize] = true;
            new_flags &= new_flags - 1;
        }

        let mut lane = 0;
        while lane < active {
            if !cursors[lane].advance() {
                lane += 1;
                continue;
            }
            out[cursors[lane].index] = finish(cursors[lane].index, states[lane], flagged[lane]);
            states[lane] = INITIAL_STATE;
            flagged[lane] = false;
            if let Some((index, message)) = pending.next() {
                cursors[lane].start(index, message);
                lane += 1;
            } else {
                // Keep the busy lanes at the front; look at the one moved
                // here next.
                active -= 1;
                cursors.swap(lane, active);
                states.swap(lane, active);
                flagged.swap(lane, active);
            }
        }
    }

    // No messages are waiting (the loop refills every lane it can), so
    // these are the last few.
    for ((state, cursor), flagged) in states.iter_mut().zip(&cursors).zip(flagged).take(active) {
        let flagged = cursor.finish(state, &mut compress) || flagged;
        out[cursor.index] = finish(cursor.index, *state, flagged);
    }
}
/// How many messages [`ByLength`] sorts at a time.
#[cfg(target_arch = "x86_64")]
const WINDOW: usize = 256;

/// The indices of a batch of messages, each [`WINDOW`] of them sorted by
/// length (without allocating), for kernels whose lockstep over several
/// blocks lasts only as long as the shortest message in it.
#[cfg(target_arch = "x86_64")]
pub(crate) struct ByLength<'m> {
    messages: &'m [&'m [u8]],
    start: usize,
    order: [u8; WINDOW],
    next: usize,
    len: usize,
}

#[cfg(target_arch = "x86_64")]
impl<'m> ByLength<'m> {
    pub(crate) fn new(messages: &'m [&'m [u8]]) -> Self {
        ByLength {
            messages,
            start: 0,
            order: [0; WINDOW],
            next: 0,
            len: 0,
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Iterator for ByLength<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.next == self.len {
            self.start += self.len;
            self.len = (self.messages.len() - self.start).min(WINDOW);
            self.next = 0;
            let window = &self.messages[self.start..self.start + self.len];
            let order = &mut self.order[..self.len];
            for (i, slot) in order.iter_mut().enumerate() {
                *slot = i as u8;
            }
            order.sort_unstable_by_key(|&i| window[usize::from(i)].len());
        }
        let at = *self.order[..self.len].get(self.next)?;
        self.next += 1;
        Some(self.start + usize::from(at))
    }
}
