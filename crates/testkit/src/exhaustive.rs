//! Exhaustive sweeps shared by the (ignored) tests and
//! `cargo xtask conformance --exhaustive`.

use crate::oracle::Width;
use bijou_core::Bijou;

/// Every byte string of length `len` decodes through `T` exactly as the
/// oracle decodes it, and each decoded value re-encodes to the bytes it
/// consumed; and so does each string followed by enough bytes (`0xA5`)
/// to fill a whole `MAX_BYTES` block, so both of `decode`'s paths (the
/// one-load path of a whole block and the careful one near the end) see
/// every string. Returns the number of strings checked.
pub fn decode_all_strings<T>(oracle: &Width, len: usize) -> Result<u64, String>
where
    T: Bijou + Into<u128>,
{
    let count = 1u64 << (8 * len);
    let mut padded = vec![0xA5u8; len.max(T::MAX_BYTES)];
    for n in 0..count {
        for (i, byte) in padded[..len].iter_mut().enumerate() {
            *byte = (n >> (8 * (len - 1 - i))) as u8;
        }
        decode_like_oracle::<T>(oracle, &padded[..len])?;
        decode_like_oracle::<T>(oracle, &padded)?;
    }
    Ok(count)
}

/// `T::decode(input)` agrees with the oracle, and a decoded value
/// re-encodes to the bytes it consumed.
fn decode_like_oracle<T>(oracle: &Width, input: &[u8]) -> Result<(), String>
where
    T: Bijou + Into<u128>,
{
    let ours = T::decode(input);
    let expected = oracle.decode(input);
    let agree = match (ours, expected) {
        (Ok((value, used)), Ok((want, want_used))) => {
            value.into() == want && used == want_used && *value.encoded() == input[..used]
        }
        (Err(ours), Err(oracle)) => oracle.matches(ours),
        _ => false,
    };
    if !agree {
        return Err(format!(
            "{} input {input:02X?}: got {ours:?}, oracle {expected:?}",
            T::NAME
        ));
    }
    Ok(())
}

/// Every `u32` in `range` round-trips through bijou32, its length matches
/// `encoded_len` and `len_from_tag`, and encodings are strictly increasing in
/// byte order. Split the full range across threads with [`u32_round_trip_all`].
pub fn u32_round_trip(range: std::ops::RangeInclusive<u32>) -> Result<u64, String> {
    use bijou_core::bijou32;
    let mut previous: Option<([u8; bijou32::MAX_BYTES], usize)> = None;
    let mut checked = 0u64;
    for value in range {
        let (bytes, len) = bijou32::encode_array(value);
        let ok = bijou32::decode(&bytes[..len]) == Ok((value, len))
            && bijou32::encoded_len(value) == len
            && bijou32::len_from_tag(bytes[0]) == len
            && previous.is_none_or(|(p, plen)| p[..plen] < bytes[..len]);
        if !ok {
            return Err(format!(
                "bijou32 value {value}: encoding {:02X?} fails round trip, length or order",
                &bytes[..len]
            ));
        }
        previous = Some((bytes, len));
        checked += 1;
    }
    Ok(checked)
}

/// [`u32_round_trip`] over all of `u32`, split across `threads` threads;
/// returns how many distinct values were checked.
pub fn u32_round_trip_all(threads: u32) -> Result<u64, String> {
    let threads = threads.max(1);
    let step = (u64::from(u32::MAX) + 1) / u64::from(threads);
    let checked: Result<u64, String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                // Each piece after the first starts at the previous piece's
                // last value, so the order check spans the seams too.
                let start = (u64::from(i) * step).saturating_sub(1) as u32;
                let end = if i + 1 == threads {
                    u32::MAX
                } else {
                    ((u64::from(i) + 1) * step - 1) as u32
                };
                scope.spawn(move || u32_round_trip(start..=end))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("sweep thread panicked"))
            .sum()
    });
    // The seam values were checked twice.
    Ok(checked? - u64::from(threads - 1))
}
