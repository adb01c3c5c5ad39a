//! The workloads of the serde shoot-out: four kinds of message, each drawn
//! from a fixed seed with distributions a real producer might have and
//! nothing tuned to any format.
//!
//! - `log-records`: 10,000 web-server log lines as one `Vec` (timestamp,
//!   IPv4 address, method, path, status, size, optional user agent,
//!   latency);
//! - `protocol-record`: 2,000 records of a replicated log, each its own
//!   message (ids, a microsecond timestamp, a signed delta, a byte payload
//!   of 0-1000 bytes, an author, an optional parent, a kind, a short `Vec`
//!   of references, a `BTreeMap<String, u64>` of 0-3 tags);
//! - `map-heavy`: 500 ledger snapshots (16-64 balances keyed by account
//!   id, 4-16 string labels: keys of mixed lengths, so their encoded order
//!   is not the map's order);
//! - `bytes-heavy`: 200 blobs (a 32-byte digest, a name, 1-8 chunks of
//!   64 B-4 KiB).

use std::collections::BTreeMap;

use bijou_benches::SplitMix64;
use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// What every format of the shoot-out can encode and decode.
pub(crate) trait Message:
    Serialize
    + for<'de> Deserialize<'de>
    + BorshSerialize
    + BorshDeserialize
    + PartialEq
    + std::fmt::Debug
{
}

impl<T> Message for T where
    T: Serialize
        + for<'de> Deserialize<'de>
        + BorshSerialize
        + BorshDeserialize
        + PartialEq
        + std::fmt::Debug
{
}

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

#[derive(
    Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Copy, Debug, PartialEq,
)]
pub(crate) enum Method {
    Get,
    Post,
    Put,
    Delete,
    Head,
    Patch,
}

#[derive(Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Debug, PartialEq)]
pub(crate) struct LogRecord {
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

/// `count` log records, one `Vec`: a single message.
pub(crate) fn log_records(count: usize) -> Vec<LogRecord> {
    let mut rng = SplitMix64::new(0x5EED_10C5);
    let mut timestamp = 1_735_689_600_000; // 2025-01-01T00:00:00Z
    (0..count)
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

#[derive(
    Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Copy, Debug, PartialEq,
)]
pub(crate) enum Kind {
    Create,
    Update,
    Delete,
    Transfer,
}

/// A reference from one record to another.
#[derive(Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Debug, PartialEq)]
pub(crate) struct Reference {
    id: u64,
    weight: u32,
}

/// An entry of a replicated log: what is hashed and signed.
#[derive(Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Debug, PartialEq)]
pub(crate) struct ProtocolRecord {
    id: u64,
    stream: u32,
    /// Microseconds since the Unix epoch.
    timestamp: u64,
    delta: i64,
    #[serde(with = "serde_bytes")]
    payload: Vec<u8>,
    author: String,
    parent: Option<u64>,
    kind: Kind,
    references: Vec<Reference>,
    tags: BTreeMap<String, u64>,
}

const TAGS: [&str; 6] = ["v", "lang", "region", "priority", "ttl", "shard"];

const AUTHORS: [&str; 5] = ["alice", "bob", "carol@example.org", "dave-7", "erin.k"];

/// `count` protocol records, each its own message.
pub(crate) fn protocol_records(count: usize) -> Vec<ProtocolRecord> {
    let mut rng = SplitMix64::new(0x9807_0C01);
    let mut id = 3_000_000_000;
    let mut timestamp = 1_735_689_600_000_000; // 2025-01-01T00:00:00Z
    (0..count)
        .map(|_| {
            id += rng.range(1, 5);
            timestamp += rng.range(0, 50_000);
            let magnitude = log_uniform(&mut rng, 0..=40) as i64;
            let payload_len = log_uniform(&mut rng, 0..=10).min(1000) as usize;
            let references = (0..rng.range(0, 4))
                .map(|_| Reference {
                    id: id - rng.range(1, 10_000),
                    weight: log_uniform(&mut rng, 0..=16) as u32,
                })
                .collect();
            let tags = (0..rng.range(0, 3))
                .map(|_| {
                    let key = TAGS[rng.range(0, TAGS.len() as u64 - 1) as usize];
                    (key.to_owned(), log_uniform(&mut rng, 0..=20))
                })
                .collect();
            ProtocolRecord {
                id,
                stream: rng.range(0, 300) as u32,
                timestamp,
                delta: if rng.next_u64() & 1 == 0 {
                    magnitude
                } else {
                    -magnitude
                },
                payload: rng.bytes(payload_len),
                author: AUTHORS[rng.range(0, AUTHORS.len() as u64 - 1) as usize].to_owned(),
                parent: (rng.range(0, 9) < 7).then(|| id - rng.range(1, 100)),
                kind: weighted(
                    &mut rng,
                    &[
                        (Kind::Create, 40),
                        (Kind::Update, 40),
                        (Kind::Delete, 5),
                        (Kind::Transfer, 15),
                    ],
                ),
                references,
                tags,
            }
        })
        .collect()
}

/// A snapshot of balances: maps first.
#[derive(Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Debug, PartialEq)]
pub(crate) struct Ledger {
    epoch: u64,
    /// Account id to balance.
    balances: BTreeMap<u64, u64>,
    labels: BTreeMap<String, String>,
}

/// `count` ledger snapshots.
pub(crate) fn ledgers(count: usize) -> Vec<Ledger> {
    let mut rng = SplitMix64::new(0x1ED6_E125);
    (0..count as u64)
        .map(|epoch| Ledger {
            epoch,
            balances: (0..rng.range(16, 64))
                .map(|_| (log_uniform(&mut rng, 8..=40), log_uniform(&mut rng, 0..=48)))
                .collect(),
            labels: (0..rng.range(4, 16))
                .map(|_| {
                    let key = format!("{}{}", TAGS[rng.range(0, 5) as usize], rng.range(0, 999));
                    let value = format!("{:x}", rng.next_u64() >> rng.range(0, 60));
                    (key, value)
                })
                .collect(),
        })
        .collect()
}

/// A chunk of a stored object.
#[derive(Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Debug, PartialEq)]
pub(crate) struct Chunk {
    offset: u64,
    #[serde(with = "serde_bytes")]
    data: Vec<u8>,
}

/// A stored object: bytes first.
#[derive(Serialize, Deserialize, BorshSerialize, BorshDeserialize, Clone, Debug, PartialEq)]
pub(crate) struct Blob {
    id: u64,
    digest: [u8; 32],
    name: String,
    chunks: Vec<Chunk>,
}

/// `count` blobs.
pub(crate) fn blobs(count: usize) -> Vec<Blob> {
    let mut rng = SplitMix64::new(0xB10B_5EED);
    (0..count as u64)
        .map(|id| {
            let mut offset = 0;
            let chunks = (0..rng.range(1, 8))
                .map(|_| {
                    let len = rng.range(64, 4096) as usize;
                    let data = rng.bytes(len);
                    let chunk = Chunk { offset, data };
                    offset += chunk.data.len() as u64;
                    chunk
                })
                .collect();
            Blob {
                id,
                digest: rng.bytes(32).try_into().expect("32 bytes"),
                name: format!("objects/{:016x}.bin", rng.next_u64()),
                chunks,
            }
        })
        .collect()
}
