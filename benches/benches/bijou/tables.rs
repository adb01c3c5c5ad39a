//! The interleaved tables a measuring run of the `bijou` bench prints
//! after criterion: each contender timed in turn, round after round, so
//! that drift hits them alike and their ratios mean something.

use super::{
    BATCH_NAME, BijouCore, Bijoux, Codec, IntegerEncoding, Prost, Upstream, Vu128,
    decode_at_offsets, decode_prefix, decode_stream, encode_values, streams,
};
use bijou_benches::{BATCH, Contender, Interleave, Stats, Workload, workloads};
use std::hint::black_box;

/// How the interleaved tables measure: 101 rounds, each timing every
/// contender on 64 Ki values (16 batches, a few hundred microseconds).
const INTERLEAVE: Interleave = Interleave {
    rounds: 101,
    sample_bytes: 16 * BATCH,
    clock_links: 1 << 16,
};

/// The per-value loops the interleaved tables time, named as their
/// criterion groups.
#[derive(Clone, Copy)]
enum Loop {
    Encode,
    Decode,
    DecodeOffsets,
}

impl Loop {
    fn group(self) -> &'static str {
        match self {
            Self::Encode => "varint-encode",
            Self::Decode => "varint-decode",
            Self::DecodeOffsets => "varint-decode-offsets",
        }
    }

    /// `C`'s loop over `workload`, one batch a call, the batches in turn.
    fn contender<C: Codec>(self, workload: &Workload) -> Contender<'static> {
        let mut at = 0;
        let run: Box<dyn FnMut()> = match self {
            Self::Encode => {
                let (batches, mut out) = (workload.batches.clone(), Vec::with_capacity(BATCH * 10));
                Box::new(move || {
                    encode_values::<C>(black_box(&batches[at]), &mut out);
                    at = (at + 1) % batches.len();
                })
            }
            Self::Decode | Self::DecodeOffsets => {
                let (streams, mut out) = (streams::<C>(workload), vec![0; BATCH]);
                let offsets = matches!(self, Self::DecodeOffsets);
                Box::new(move || {
                    let stream = black_box(&streams[at]);
                    if offsets {
                        decode_at_offsets::<C>(stream, &mut out);
                    } else {
                        black_box(decode_stream::<C>(stream, &mut out));
                        black_box(&out);
                    }
                    at = (at + 1) % streams.len();
                })
            }
        };
        (C::NAME.to_owned(), run)
    }
}

/// Formats `stats` (one per contender) as a table row's cells.
fn cells(stats: &[Stats]) -> String {
    // `Interleave` counts units per second; here a unit is a value.
    stats
        .iter()
        .map(|s| format!(" {:.2} ns, {:.1} cycles |", 1e3 / s.rate, s.cpb))
        .collect()
}

/// Prints a table's title after a blank line, then its header row (the
/// first column a name, the others numbers) and the alignment row.
fn table_head(title: &str, columns: &[&str]) {
    bijou_benches::emit!("\n{title}");
    bijou_benches::emit!("| {} |", columns.join(" | "));
    bijou_benches::emit!("| :--- |{}", " ---: |".repeat(columns.len() - 1));
}

/// The per-value loops of bijou-core and upstream `bijou64` side by side.
/// Both are one bijective decoder a value, and their criterion medians
/// land within the drift between two runs of one binary (BENCHMARKS.md);
/// timed in turn, round after round, the drift hits both alike and their
/// ratio means something.
pub(super) fn interleaved_tables() {
    let workloads = workloads();
    for op in [Loop::Encode, Loop::DecodeOffsets] {
        table_head(
            &format!(
                "{}: bijou-core against upstream bijou64 (interleaved medians: ns/value, cycles/value, upstream ÷ bijou-core)",
                op.group()
            ),
            &["workload", BijouCore::NAME, Upstream::NAME],
        );
        for workload in &workloads {
            let mut contenders = [
                op.contender::<BijouCore>(workload),
                op.contender::<Upstream>(workload),
            ];
            let (stats, _) = INTERLEAVE.run(&mut contenders, BATCH);
            bijou_benches::emit!(
                "| {} |{} **{:.2}×** |",
                workload.name,
                cells(&stats).trim_end_matches('|'),
                stats[0].rate / stats[1].rate,
            );
        }
    }
    decode_table(&workloads);
    field_list_table(&workloads);
    length_chain_table(&workloads);
    signed_decode_table(&workloads);
}

/// The stream decode loops of bijou-core, its batch decoder, both upstream
/// crates, the two LEB128 decoders to beat and vu128, timed in turn; the
/// ratios are bijou-core's time over the best peer's of each kind (lower is
/// better: 0.50× is twice as fast), as `docs/decode.md` states its targets.
fn decode_table(workloads: &[Workload]) {
    table_head(
        "varint-decode: every peer, interleaved (medians: ns/value, cycles/value; ratios are time ÷ the best peer's time)",
        &[
            "workload",
            "bijou-core",
            "bijou-core-batch",
            "bijou-core values (for)",
            "bijou-core values (for_each)",
            "bijou64",
            "bijoux",
            "prost",
            "integer-encoding",
            "vu128",
            "core ÷ upstream",
            "core ÷ LEB128",
            "core ÷ vu128",
            "batch ÷ upstream",
            "values (for) ÷ upstream",
            "values (for_each) ÷ upstream",
        ],
    );
    for workload in workloads {
        let mut contenders = decode_contenders(workload);
        let (stats, _) = INTERLEAVE.run(&mut contenders, BATCH);
        let time = |i: usize| 1.0 / stats[i].rate;
        let best = |peers: &[usize]| peers.iter().map(|&i| time(i)).fold(f64::INFINITY, f64::min);
        let upstream = best(&[4, 5]);
        bijou_benches::emit!(
            "| {} |{} {:.2}× | {:.2}× | {:.2}× | {:.2}× | {:.2}× | {:.2}× |",
            workload.name,
            cells(&stats),
            time(0) / upstream,
            time(0) / best(&[6, 7]),
            time(0) / time(8),
            time(1) / upstream,
            time(2) / upstream,
            time(3) / upstream,
        );
    }
}

/// Every stream decoder of the `varint-decode` table on `workload`, one
/// batch a call, in the table's column order: bijou-core's `decode` loop,
/// `decode_batch`, `values` in a `for` loop and with `for_each`, then
/// upstream `bijou64` and `bijoux`, prost, integer-encoding and vu128.
pub(super) fn decode_contenders(workload: &Workload) -> [Contender<'static>; 9] {
    let op = Loop::Decode;
    [
        op.contender::<BijouCore>(workload),
        batch_contender(workload),
        values_contender(workload, false),
        values_contender(workload, true),
        op.contender::<Upstream>(workload),
        op.contender::<Bijoux>(workload),
        op.contender::<Prost>(workload),
        op.contender::<IntegerEncoding>(workload),
        op.contender::<Vu128>(workload),
    ]
}

/// Values per list in [`field_list_table`].
const LIST_LENGTHS: [usize; 4] = [5, 20, 100, 400];

/// The workloads [`field_list_table`] cuts into lists: one with runs of a
/// length, one of mixed lengths, one of repeating records.
const LIST_WORKLOADS: [&str; 3] = ["small", "mix", "records"];

/// Each workload's batches cut into lists of a few values, each list its
/// own slice ending where its last value ends (a field list, a small
/// message): bijou-core's `decode` loop, `decode_batch` and `values`
/// against upstream's loop, every list of a batch a call. Short inputs are
/// where a decoder's set-up per call shows.
fn field_list_table(workloads: &[Workload]) {
    table_head(
        "varint-decode-lists: lists of n values, each its own slice (interleaved medians: ns/value, cycles/value; ratios are time ÷ the faster upstream's time)",
        &[
            "workload, n",
            "bijou-core",
            "bijou-core-batch",
            "bijou-core values (for)",
            "bijou64",
            "bijoux",
            "core ÷ upstream",
            "batch ÷ upstream",
            "values (for) ÷ upstream",
        ],
    );
    for workload in workloads
        .iter()
        .filter(|w| LIST_WORKLOADS.contains(&w.name))
    {
        for n in LIST_LENGTHS {
            let lists = field_lists(workload, n);
            let mut contenders: [Contender<'_>; 5] = [
                list_contender(
                    workload,
                    &lists,
                    n,
                    BijouCore::NAME,
                    decode_list::<BijouCore>,
                ),
                list_contender(workload, &lists, n, "bijou-core-batch", |list, out| {
                    black_box(bijou_core::bijou64::decode_batch(list, out).expect("valid list"));
                }),
                list_contender(workload, &lists, n, "bijou-core-values", |list, out| {
                    for (k, value) in bijou_core::bijou64::values(list).enumerate() {
                        out[k] = value.expect("valid list");
                    }
                }),
                list_contender(workload, &lists, n, Upstream::NAME, decode_list::<Upstream>),
                list_contender(workload, &lists, n, Bijoux::NAME, decode_list::<Bijoux>),
            ];
            let (stats, _) = INTERLEAVE.run(&mut contenders, BATCH);
            let time = |i: usize| 1.0 / stats[i].rate;
            let upstream = time(3).min(time(4));
            bijou_benches::emit!(
                "| {}, {n} |{} {:.2}× | {:.2}× | {:.2}× |",
                workload.name,
                cells(&stats),
                time(0) / upstream,
                time(1) / upstream,
                time(2) / upstream,
            );
        }
    }
}

/// `C`'s stream loop over one list, into `out` (the decoders listed here
/// read no byte past the list).
fn decode_list<C: Codec>(list: &[u8], out: &mut [u64]) {
    decode_prefix::<C>(list, list.len(), out);
}

/// `workload`'s batches as lists of `n` values: per batch, the lists'
/// encodings, each exactly as long as its values.
fn field_lists(workload: &Workload, n: usize) -> Vec<Vec<Vec<u8>>> {
    workload
        .batches
        .iter()
        .map(|batch| {
            batch
                .chunks(n)
                .map(|list| {
                    let mut bytes = Vec::new();
                    bijou_core::bijou64::encode_batch(list, &mut bytes);
                    bytes
                })
                .collect()
        })
        .collect()
}

/// `decode` run on every list of a batch (a batch's values in all), one
/// batch a call, in turn; every list is first checked to decode to the
/// workload's values.
fn list_contender<'a>(
    workload: &Workload,
    lists: &'a [Vec<Vec<u8>>],
    n: usize,
    name: &str,
    decode: impl Fn(&[u8], &mut [u64]) + 'a,
) -> Contender<'a> {
    let mut out = vec![0u64; LIST_LENGTHS[LIST_LENGTHS.len() - 1]];
    for (batch, batch_lists) in workload.batches.iter().zip(lists) {
        for (values, list) in batch.chunks(n).zip(batch_lists) {
            decode(list, &mut out);
            assert_eq!(&out[..values.len()], values, "{name}");
        }
    }
    let mut at = 0;
    let run = Box::new(move || {
        for list in black_box(&lists[at]) {
            decode(list, &mut out);
        }
        black_box(&out);
        at = (at + 1) % lists.len();
    });
    (name.to_owned(), run)
}

/// The stream decode loops of bijou-core and upstream `bijou64` against
/// the length chain alone, on the workloads whose every value has a
/// multi-byte encoding: what a decoder without a branch on the length
/// waits for between one value and the next (the tag's load, then the
/// add). Predicted branches on the tier (upstream's, and `decode`'s arms)
/// let the CPU run ahead of that chain; `docs/decode.md` has the argument.
fn length_chain_table(workloads: &[Workload]) {
    table_head(
        "varint-decode-chain: the stream loops against the length chain alone (interleaved medians: ns/value, cycles/value; ratios are time ÷ time)",
        &[
            "workload",
            "bijou-core",
            "bijou64",
            "length chain",
            "chain ÷ bijou64",
            "bijou-core ÷ chain",
        ],
    );
    for workload in workloads {
        let Some(chain) = length_chain_contender(workload) else {
            continue;
        };
        let mut contenders = [
            Loop::Decode.contender::<BijouCore>(workload),
            Loop::Decode.contender::<Upstream>(workload),
            chain,
        ];
        ratio_row(workload, &mut contenders, [(2, 1), (0, 2)]);
    }
}

/// The loop `pos += tag - (THRESHOLD - 2)` over `workload`'s bijou64
/// streams: a multi-byte value's length from its tag, as `decode` finds
/// it, and nothing else. `None` if a value of the workload takes one byte.
fn length_chain_contender(workload: &Workload) -> Option<Contender<'static>> {
    use bijou_core::bijou64::THRESHOLD;
    let streams = streams::<BijouCore>(workload);
    let multi_byte =
        |s: &bijou_benches::Stream| s.offsets.iter().all(|&at| s.bytes[at] >= THRESHOLD);
    if !streams.iter().all(multi_byte) {
        return None;
    }
    let mut at = 0;
    let run = Box::new(move || {
        let s = black_box(&streams[at]);
        let (mut pos, mut count) = (0, 0);
        while pos < s.len {
            pos += usize::from(s.bytes[pos]) - usize::from(THRESHOLD - 2);
            count += 1;
        }
        black_box(count);
        at = (at + 1) % streams.len();
    });
    Some(("length-chain".to_owned(), run))
}

/// The signed batch decoder against the signed per-value loop and the
/// unsigned batch decoder, on the same streams read as bijou64s (any bytes
/// that decode as bijou64 decode as bijou64s, to the zigzag images).
fn signed_decode_table(workloads: &[Workload]) {
    table_head(
        "varint-decode-signed: bijou64s on the same streams (interleaved medians: ns/value, cycles/value; ratios are time ÷ time)",
        &[
            "workload",
            "bijou64s decode loop",
            "bijou64s decode_batch",
            "bijou64 decode_batch",
            "signed batch ÷ loop",
            "signed ÷ unsigned batch",
        ],
    );
    for workload in workloads {
        let mut contenders = [
            signed_loop_contender(workload),
            signed_batch_contender(workload),
            batch_contender(workload),
        ];
        ratio_row(workload, &mut contenders, [(1, 0), (1, 2)]);
    }
}

/// Times `contenders` in turn on `workload` and prints its row: each
/// contender's cells, then for each `(i, j)` contender i's time over
/// contender j's.
fn ratio_row(workload: &Workload, contenders: &mut [Contender<'_>], ratios: [(usize, usize); 2]) {
    let (stats, _) = INTERLEAVE.run(contenders, BATCH);
    let time = |i: usize| 1.0 / stats[i].rate;
    let [(a, b), (c, d)] = ratios;
    bijou_benches::emit!(
        "| {} |{} {:.2}× | {:.2}× |",
        workload.name,
        cells(&stats),
        time(a) / time(b),
        time(c) / time(d),
    );
}

/// A `while` loop of `bijou64s::decode` over `workload`'s streams.
fn signed_loop_contender(workload: &Workload) -> Contender<'static> {
    let (streams, mut out, mut at) = (streams::<BijouCore>(workload), vec![0i64; BATCH], 0);
    let run = Box::new(move || {
        let s = black_box(&streams[at]);
        let (mut pos, mut k) = (0, 0);
        while pos < s.len {
            let (value, len) = bijou_core::bijou64s::decode(&s.bytes[pos..]).expect("valid stream");
            out[k] = value;
            (pos, k) = (pos + len, k + 1);
        }
        black_box(&out);
        at = (at + 1) % streams.len();
    });
    ("bijou64s-loop".to_owned(), run)
}

/// A `for` loop over `bijou64::values` on `workload`'s streams (or, with
/// `for_each`, the iterator's own loop), storing each value as the
/// per-value loops do, one batch a call, in turn.
fn values_contender(workload: &Workload, for_each: bool) -> Contender<'static> {
    let (streams, mut out, mut at) = (streams::<BijouCore>(workload), vec![0u64; BATCH], 0);
    let run = Box::new(move || {
        let s = black_box(&streams[at]);
        let values = bijou_core::bijou64::values(&s.bytes[..s.len]);
        let mut k = 0;
        if for_each {
            values.for_each(|value| {
                out[k] = value.expect("valid stream");
                k += 1;
            });
        } else {
            for value in values {
                out[k] = value.expect("valid stream");
                k += 1;
            }
        }
        black_box(&out);
        at = (at + 1) % streams.len();
    });
    let name = if for_each {
        "bijou-core-values-for-each"
    } else {
        "bijou-core-values"
    };
    (name.to_owned(), run)
}

/// `decode_batch` over `workload`'s streams, one batch a call, in turn.
fn batch_contender(workload: &Workload) -> Contender<'static> {
    batch_contender_with(workload, BATCH_NAME, bijou_core::bijou64::decode_batch)
}

/// `bijou64s::decode_batch` over `workload`'s streams, one batch a call.
fn signed_batch_contender(workload: &Workload) -> Contender<'static> {
    batch_contender_with(
        workload,
        "bijou64s-batch",
        bijou_core::bijou64s::decode_batch,
    )
}

/// A width's `decode_batch`.
type DecodeBatch<T> = fn(&[u8], &mut [T]) -> Result<(usize, usize), bijou_core::BatchDecodeError>;

/// `decode_batch`, named `name`, over `workload`'s streams, one batch a
/// call, in turn.
fn batch_contender_with<T: Copy + Default + 'static>(
    workload: &Workload,
    name: &str,
    decode_batch: DecodeBatch<T>,
) -> Contender<'static> {
    let (streams, mut out, mut at) = (streams::<BijouCore>(workload), vec![T::default(); BATCH], 0);
    let run = Box::new(move || {
        let s = black_box(&streams[at]);
        let done = decode_batch(&s.bytes[..s.len], &mut out);
        black_box(done.expect("valid stream"));
        black_box(&out);
        at = (at + 1) % streams.len();
    });
    (name.to_owned(), run)
}
