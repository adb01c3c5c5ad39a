//! bijou-serde against the serde formats users would pick instead: BCS
//! (canonical, built for hashing and signing), postcard (varints),
//! bincode 2 with its standard (varint) configuration, and borsh
//! (fixed-width, its own derive), on the workloads of `messages.rs`.
//!
//! - `serde-serialize/FORMAT/WORKLOAD`: each message into a new `Vec<u8>`
//!   (`to_vec`, `bcs::to_bytes`, postcard's `to_allocvec`, bincode's
//!   `encode_to_vec`, borsh's `to_vec`), as a caller about to hash, sign
//!   or send one does;
//! - `serde-deserialize/FORMAT/WORKLOAD`: each format's own encodings back
//!   into owned messages.
//!
//! Throughput is `Elements`: criterion's time is per record for
//! `log-records` (10,000 records, one message) and per message for the
//! others. A measuring run then prints, per workload, an interleaved table
//! (`Interleave`: every format's serialize and deserialize in turn, the
//! order rotating, [`ROUNDS`] rounds, medians per format, so drift on a
//! shared machine falls on all of them alike) with each format's encoded
//! size beside its times. Run pinned, e.g. `taskset -c 1 cargo bench -p
//! bijou-benches --bench serde`; `-- '^none$'` skips criterion and prints
//! the tables alone.

#![allow(missing_docs)] // criterion_main! generates an undocumented `main`.

use std::hint::black_box;
use std::time::Duration;

use bijou_benches::{Contender, Interleave, emit, is_measuring_run};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod messages;

use messages::Message;

/// Rounds of the interleaved tables.
const ROUNDS: usize = 201;

/// One format: its name and its codec for one message.
struct Format<M> {
    name: &'static str,
    encode: fn(&M) -> Vec<u8>,
    decode: fn(&[u8]) -> M,
}

/// The formats, bijou-serde first: the ratios are against it.
fn formats<M: Message>() -> [Format<M>; 5] {
    [
        Format {
            name: "bijou-serde",
            encode: |m| bijou_serde::to_vec(m).expect("encodes"),
            decode: |bytes| bijou_serde::from_slice(bytes).expect("decodes"),
        },
        Format {
            name: "bcs",
            encode: |m| bcs::to_bytes(m).expect("encodes"),
            decode: |bytes| bcs::from_bytes(bytes).expect("decodes"),
        },
        Format {
            name: "postcard",
            encode: |m| postcard::to_allocvec(m).expect("encodes"),
            decode: |bytes| postcard::from_bytes(bytes).expect("decodes"),
        },
        Format {
            name: "bincode",
            encode: |m| {
                bincode::serde::encode_to_vec(m, bincode::config::standard()).expect("encodes")
            },
            decode: |bytes| {
                bincode::serde::decode_from_slice(bytes, bincode::config::standard())
                    .expect("decodes")
                    .0
            },
        },
        Format {
            name: "borsh",
            encode: |m| borsh::to_vec(m).expect("encodes"),
            decode: |bytes| borsh::from_slice(bytes).expect("decodes"),
        },
    ]
}

/// Messages encoded and decoded one by one, one call for all of them.
struct Workload<M> {
    name: &'static str,
    messages: Vec<M>,
    /// What the times are per ("record", "message"), and how many of them
    /// a call handles.
    unit: &'static str,
    units: usize,
}

impl<M> Workload<M> {
    /// One message per unit.
    fn of_messages(name: &'static str, messages: Vec<M>) -> Self {
        let units = messages.len();
        Workload {
            name,
            messages,
            unit: "message",
            units,
        }
    }
}

fn serde_formats(c: &mut Criterion) {
    let records = messages::log_records(10_000);
    let units = records.len();
    shoot_out(
        c,
        &Workload {
            name: "log-records",
            messages: vec![records],
            unit: "record",
            units,
        },
    );
    shoot_out(
        c,
        &Workload::of_messages("protocol-record", messages::protocol_records(2_000)),
    );
    shoot_out(
        c,
        &Workload::of_messages("map-heavy", messages::ledgers(500)),
    );
    shoot_out(
        c,
        &Workload::of_messages("bytes-heavy", messages::blobs(200)),
    );
}

/// Every format on `workload`: criterion's groups, then on a measuring run
/// the interleaved table.
fn shoot_out<M: Message>(c: &mut Criterion, workload: &Workload<M>) {
    let formats = formats::<M>();
    let encoded: Vec<Vec<Vec<u8>>> = formats
        .iter()
        .map(|f| workload.messages.iter().map(f.encode).collect())
        .collect();
    for (format, encodings) in formats.iter().zip(&encoded) {
        for (message, bytes) in workload.messages.iter().zip(encodings) {
            assert_eq!(
                &(format.decode)(bytes),
                message,
                "{} round trip",
                format.name
            );
        }
    }

    let mut group = c.benchmark_group("serde-serialize");
    group.throughput(Throughput::Elements(workload.units as u64));
    for format in &formats {
        group.bench_function(format!("{}/{}", format.name, workload.name), |b| {
            b.iter(|| serialize_all(format, black_box(&workload.messages)));
        });
    }
    group.finish();

    let mut group = c.benchmark_group("serde-deserialize");
    group.throughput(Throughput::Elements(workload.units as u64));
    for (format, encodings) in formats.iter().zip(&encoded) {
        group.bench_function(format!("{}/{}", format.name, workload.name), |b| {
            b.iter(|| deserialize_all(format, black_box(encodings)));
        });
    }
    group.finish();

    if is_measuring_run() {
        interleaved(workload, &formats, &encoded);
    }
}

fn serialize_all<M>(format: &Format<M>, messages: &[M]) {
    for message in messages {
        drop(black_box((format.encode)(black_box(message))));
    }
}

fn deserialize_all<M>(format: &Format<M>, encodings: &[Vec<u8>]) {
    for bytes in encodings {
        drop(black_box((format.decode)(black_box(bytes))));
    }
}

/// Each format's serialize and deserialize of `workload`, every one in
/// turn, once a round, [`ROUNDS`] rounds: median ns per unit, each one's
/// speed-up over the format ("2.00x": bijou-serde takes half its time),
/// and the encoded sizes.
fn interleaved<M: Message>(
    workload: &Workload<M>,
    formats: &[Format<M>],
    encoded: &[Vec<Vec<u8>>],
) {
    let interleave = Interleave {
        rounds: ROUNDS,
        // One call a sample: a call is the whole workload.
        sample_bytes: workload.units,
        clock_links: 1 << 14,
    };
    let mut contenders: Vec<Contender<'_>> = Vec::new();
    for (format, encodings) in formats.iter().zip(encoded) {
        let messages = &workload.messages;
        contenders.push((
            format!("{} serialize", format.name),
            Box::new(move || serialize_all(format, black_box(messages))),
        ));
        contenders.push((
            format!("{} deserialize", format.name),
            Box::new(move || deserialize_all(format, black_box(encodings))),
        ));
    }
    // `Interleave` counts units per second.
    let (stats, _) = interleave.run(&mut contenders, workload.units);
    let medians: Vec<[f64; 2]> = stats
        .chunks(2)
        .map(|pair| [1e3 / pair[0].rate, 1e3 / pair[1].rate])
        .collect();
    let sizes: Vec<usize> = encoded
        .iter()
        .map(|encodings| encodings.iter().map(Vec::len).sum())
        .collect();
    let unit = workload.unit;
    emit!("");
    emit!(
        "serde-interleaved/{} ({} {unit}s, {ROUNDS} rounds, median ns/{unit}; \
         speed-up: the format's time ÷ bijou-serde's)",
        workload.name,
        workload.units,
    );
    emit!(
        "| format | bytes | bytes/{unit} | size vs bijou-serde | serialize | speed-up | deserialize | speed-up |"
    );
    emit!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for ((format, [ser, de]), size) in formats.iter().zip(&medians).zip(&sizes) {
        emit!(
            "| {} | {size} | {:.1} | {:.3} | {ser:.1} | {:.2}x | {de:.1} | {:.2}x |",
            format.name,
            *size as f64 / workload.units as f64,
            *size as f64 / sizes[0] as f64,
            ser / medians[0][0],
            de / medians[0][1]
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3));
    targets = serde_formats
}
criterion_main!(benches);
