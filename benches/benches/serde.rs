//! bijou-serde against the serde formats users would pick instead, on
//! 10,000 log-like records (timestamp, IPv4 address, method, path,
//! status, response size, optional user agent, latency):
//!
//! - `serde-serialize/log-records`: the records, as one `Vec`, into a new
//!   `Vec<u8>` (`to_vec`, postcard's `to_allocvec`, bincode's
//!   `encode_to_vec` with its standard (varint) configuration, borsh's
//!   `to_vec`);
//! - `serde-deserialize/log-records`: each format's own encoding back into
//!   a `Vec` of records (owned strings for all: borsh cannot borrow).
//!
//! Throughput is `Elements(10_000)`: criterion's time over 10,000 is
//! ns/record. A measuring run also prints each format's encoded size and
//! its ratio to postcard's, and an interleaved table (`Interleave`): every
//! format's serialize and deserialize in turn (the order rotating),
//! [`ROUNDS`] times, medians per format, so drift on a shared machine falls
//! on all of them alike. The records are drawn from a fixed seed, with
//! distributions a web server's log might have (mostly GET and 200,
//! millisecond timestamps, sizes and latencies spread over orders of
//! magnitude); nothing in them is tuned to any format. Run pinned, e.g.
//! `taskset -c 1 cargo bench -p bijou-benches --bench serde`.

#![allow(missing_docs)] // criterion_main! generates an undocumented `main`.

use std::hint::black_box;
use std::time::Duration;

use bijou_benches::{Contender, Interleave, SplitMix64, emit, is_measuring_run};
use borsh::{BorshDeserialize, BorshSerialize};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};

const RECORDS: usize = 10_000;

/// Rounds of the interleaved table.
const ROUNDS: usize = 201;

#[derive(
    Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Copy, Debug, PartialEq,
)]
enum Method {
    Get,
    Post,
    Put,
    Delete,
    Head,
    Patch,
}

#[derive(Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Debug, PartialEq)]
struct LogRecord {
    /// Milliseconds since the Unix epoch.
    timestamp: u64,
    ip: (u8, u8, u8, u8),
    method: Method,
    path: String,
    status: u16,
    /// Response bytes.
    size: u64,
    user_agent: Option<String>,
    /// Microseconds.
    latency: u32,
}

const USER_AGENTS: [&str; 5] = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "curl/8.5.0",
    "Go-http-client/2.0",
];

/// One of `choices` (value, weight in percent).
fn weighted<T: Copy>(rng: &mut SplitMix64, choices: &[(T, u64)]) -> T {
    let mut roll = rng.range(0, choices.iter().map(|c| c.1).sum::<u64>() - 1);
    for &(value, weight) in choices {
        if roll < weight {
            return value;
        }
        roll -= weight;
    }
    unreachable!("the roll is below the total weight")
}

/// A value with a bit length uniform in `bits`: spread over orders of
/// magnitude, as sizes and latencies are.
fn log_uniform(rng: &mut SplitMix64, bits: std::ops::RangeInclusive<u32>) -> u64 {
    let width = rng.range(u64::from(*bits.start()), u64::from(*bits.end())) as u32;
    if width == 0 {
        return 0;
    }
    rng.range(1 << (width - 1), (1 << width) - 1)
}

fn path(rng: &mut SplitMix64) -> String {
    let id = log_uniform(rng, 1..=24);
    match rng.range(0, 6) {
        0 => "/".to_owned(),
        1 => "/index.html".to_owned(),
        2 => format!("/api/v1/users/{id}"),
        3 => format!("/api/v1/orders/{id}/items"),
        4 => format!("/static/js/app.{:08x}.js", rng.next_u64() as u32),
        5 => format!("/images/{id}.png"),
        _ => format!("/search?q=item{id}&page={}", rng.range(1, 20)),
    }
}

fn records() -> Vec<LogRecord> {
    let mut rng = SplitMix64::new(0x5EED_10C5);
    let mut timestamp = 1_735_689_600_000; // 2025-01-01T00:00:00Z
    (0..RECORDS)
        .map(|_| {
            timestamp += rng.range(0, 20);
            let ip = rng.next_u64().to_le_bytes();
            let method = weighted(
                &mut rng,
                &[
                    (Method::Get, 70),
                    (Method::Post, 20),
                    (Method::Put, 4),
                    (Method::Delete, 3),
                    (Method::Head, 2),
                    (Method::Patch, 1),
                ],
            );
            let status = weighted(
                &mut rng,
                &[
                    (200, 80),
                    (201, 3),
                    (301, 2),
                    (302, 2),
                    (304, 6),
                    (404, 6),
                    (500, 1),
                ],
            );
            let user_agent = (rng.range(0, 99) < 85).then(|| {
                USER_AGENTS[rng.range(0, USER_AGENTS.len() as u64 - 1) as usize].to_owned()
            });
            LogRecord {
                timestamp,
                ip: (ip[0], ip[1], ip[2], ip[3]),
                method,
                path: path(&mut rng),
                status,
                size: log_uniform(&mut rng, 0..=20),
                user_agent,
                latency: log_uniform(&mut rng, 6..=22) as u32,
            }
        })
        .collect()
}

/// One format: its name and its codec for the whole batch.
struct Format {
    name: &'static str,
    encode: fn(&Vec<LogRecord>) -> Vec<u8>,
    decode: fn(&[u8]) -> Vec<LogRecord>,
}

const FORMATS: [Format; 4] = [
    Format {
        name: "bijou-serde",
        encode: |records| bijou_serde::to_vec(records).expect("encodes"),
        decode: |bytes| bijou_serde::from_slice(bytes).expect("decodes"),
    },
    Format {
        name: "postcard",
        encode: |records| postcard::to_allocvec(records).expect("encodes"),
        decode: |bytes| postcard::from_bytes(bytes).expect("decodes"),
    },
    Format {
        name: "bincode",
        encode: |records| {
            bincode::serde::encode_to_vec(records, bincode::config::standard()).expect("encodes")
        },
        decode: |bytes| {
            bincode::serde::decode_from_slice(bytes, bincode::config::standard())
                .expect("decodes")
                .0
        },
    },
    Format {
        name: "borsh",
        encode: |records| borsh::to_vec(records).expect("encodes"),
        decode: |bytes| borsh::from_slice(bytes).expect("decodes"),
    },
];

fn serde_formats(c: &mut Criterion) {
    let records = records();
    let encoded: Vec<Vec<u8>> = FORMATS.iter().map(|f| (f.encode)(&records)).collect();
    for (format, bytes) in FORMATS.iter().zip(&encoded) {
        assert_eq!(
            (format.decode)(bytes),
            records,
            "{} round trip",
            format.name
        );
    }

    let mut group = c.benchmark_group("serde-serialize");
    group.throughput(Throughput::Elements(RECORDS as u64));
    for format in &FORMATS {
        group.bench_function(format!("{}/log-records", format.name), |b| {
            b.iter(|| (format.encode)(black_box(&records)));
        });
    }
    group.finish();

    let mut group = c.benchmark_group("serde-deserialize");
    group.throughput(Throughput::Elements(RECORDS as u64));
    for (format, bytes) in FORMATS.iter().zip(&encoded) {
        group.bench_function(format!("{}/log-records", format.name), |b| {
            b.iter(|| (format.decode)(black_box(bytes)));
        });
    }
    group.finish();

    if is_measuring_run() {
        interleaved(&records, &encoded);
        let postcard = encoded[1].len() as f64;
        emit!("");
        emit!("serde-size/log-records ({RECORDS} records)");
        emit!("| format | bytes | bytes/record | vs postcard |");
        emit!("|---|---:|---:|---:|");
        for (format, bytes) in FORMATS.iter().zip(&encoded) {
            emit!(
                "| {} | {} | {:.1} | {:.3} |",
                format.name,
                bytes.len(),
                bytes.len() as f64 / RECORDS as f64,
                bytes.len() as f64 / postcard
            );
        }
    }
}

/// Each format's serialize and deserialize, every one in turn, once a
/// round, [`ROUNDS`] rounds: median ns/record, and each one's ratio to
/// bijou-serde's ("2.00x": bijou-serde is twice as fast).
fn interleaved(records: &Vec<LogRecord>, encoded: &[Vec<u8>]) {
    const INTERLEAVE: Interleave = Interleave {
        rounds: ROUNDS,
        // One call a sample: a call is all the records.
        sample_bytes: RECORDS,
        clock_links: 1 << 14,
    };
    let mut contenders: Vec<Contender<'_>> = Vec::new();
    for (format, bytes) in FORMATS.iter().zip(encoded) {
        contenders.push((
            format!("{} serialize", format.name),
            Box::new(move || drop(black_box((format.encode)(black_box(records))))),
        ));
        contenders.push((
            format!("{} deserialize", format.name),
            Box::new(move || drop(black_box((format.decode)(black_box(bytes))))),
        ));
    }
    // `Interleave` counts units per second; here a unit is a record.
    let (stats, _) = INTERLEAVE.run(&mut contenders, RECORDS);
    let medians: Vec<[f64; 2]> = stats
        .chunks(2)
        .map(|pair| [1e3 / pair[0].rate, 1e3 / pair[1].rate])
        .collect();
    emit!("");
    emit!("serde-interleaved/log-records ({ROUNDS} rounds, median ns/record)");
    emit!("| format | serialize | vs bijou-serde | deserialize | vs bijou-serde |");
    emit!("|---|---:|---:|---:|---:|");
    for (format, [ser, de]) in FORMATS.iter().zip(&medians) {
        emit!(
            "| {} | {ser:.1} | {:.2}x | {de:.1} | {:.2}x |",
            format.name,
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
