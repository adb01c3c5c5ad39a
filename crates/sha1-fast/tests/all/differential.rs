//! Differential tests against the `sha1` crate (the external oracle) and
//! `sha1_fast::reference`, for every backend available on this machine.

use crate::common::{backends, check_all, noise, oracle};
use proptest::prelude::*;
use sha1_fast::{Backend, Digest, Sha1, reference};

const CHUNKS: [usize; 17] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17];

#[test]
fn every_length_up_to_2048() {
    let data = noise(1, 2048);
    for len in 0..=data.len() {
        let input = &data[..len];
        check_all(input, oracle(input), &CHUNKS, &format!("{len} bytes"));
    }
}

#[test]
fn multi_block_sizes() {
    for (seed, len) in [
        4095,
        4096,
        4097,
        16384 + 55,
        65535,
        65536,
        65537 + 64,
        (1 << 20) + 13,
    ]
    .into_iter()
    .enumerate()
    {
        let data = noise(seed as u64 + 100, len);
        check_all(&data, oracle(&data), &CHUNKS, &format!("{len} bytes"));
    }
}

#[test]
fn compress_matches_reference_and_sha1_crate() {
    for count in 0..=9usize {
        let bytes = noise(count as u64 + 7, 64 * count);
        let blocks: Vec<[u8; 64]> = bytes
            .chunks_exact(64)
            .map(|b| b.try_into().unwrap())
            .collect();
        let start = [
            0x0123_4567,
            0x89AB_CDEF,
            0xFEDC_BA98,
            0x7654_3210,
            count as u32,
        ];
        let mut expected = start;
        sha1::block_api::compress(&mut expected, &blocks);
        let mut got = start;
        reference::compress(&mut got, &blocks);
        assert_eq!(got, expected, "reference, {count} blocks");
        let mut got = start;
        sha1_fast::compress(&mut got, &blocks);
        assert_eq!(got, expected, "compress(), {count} blocks");
        for backend in backends() {
            let mut got = start;
            backend.compress(&mut got, &blocks);
            assert_eq!(got, expected, "{backend}, {count} blocks");
        }
    }
}

/// Feeds `data` to `backend` cut at `cuts` (taken modulo the length).
fn split(backend: Backend, data: &[u8], cuts: &[usize]) -> Digest {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (data.len() + 1)).collect();
    points.sort_unstable();
    let mut hasher = Sha1::with_backend(backend).unwrap();
    let mut at = 0;
    for point in points.into_iter().chain([data.len()]) {
        hasher.update(&data[at..point]);
        at = point;
    }
    hasher.finalize()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_splits(data in prop::collection::vec(any::<u8>(), 0..3000), cuts in prop::collection::vec(any::<usize>(), 0..12)) {
        let expected = oracle(&data);
        for backend in backends() {
            prop_assert_eq!(split(backend, &data, &cuts), expected, "{}", backend);
        }
        prop_assert_eq!(Digest::from(reference::digest(&data)), expected);
    }

    #[test]
    fn random_states_and_blocks(start in any::<[u32; 5]>(), bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let blocks: Vec<[u8; 64]> = bytes.chunks_exact(64).map(|b| b.try_into().unwrap()).collect();
        let mut expected = start;
        reference::compress(&mut expected, &blocks);
        for backend in backends() {
            let mut got = start;
            backend.compress(&mut got, &blocks);
            prop_assert_eq!(got, expected, "{}", backend);
        }
    }
}
