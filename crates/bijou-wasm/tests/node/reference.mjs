// A plain BigInt transcription of the bijou format, written from the format
// rules in /work/shared/specs/bijou-format.md (which restates upstream's
// SPEC.md), sharing no code with the Rust crates: the tests' oracle.

// Width W bits: T = W/8 tiers, threshold H = 256 - T, OFFSET[0] = 0,
// OFFSET[1] = H, OFFSET[n] = OFFSET[n-1] + 256^(n-1).
export function width(name) {
  const bits = { 32: 32, '32s': 32, 64: 64, '64s': 64, 128: 128, '128s': 128 }[name];
  const tiers = bits / 8;
  const threshold = 256 - tiers;
  const offsets = [0n, BigInt(threshold)];
  for (let n = 2; n <= tiers + 1; n++) offsets.push(offsets[n - 1] + 256n ** BigInt(n - 1));
  const signed = name.endsWith('s');
  const max = 2n ** BigInt(bits) - 1n;
  return {
    name, bits, tiers, threshold, offsets, signed, max,
    min: signed ? -(2n ** BigInt(bits - 1)) : 0n,
    top: signed ? 2n ** BigInt(bits - 1) - 1n : max,
  };
}

// Zigzag: (n << 1) ^ (n >> (W-1)), as W-bit unsigned.
export function zigzag(w, n) {
  if (!w.signed) return n;
  return BigInt.asUintN(w.bits, (n << 1n) ^ (n >> BigInt(w.bits - 1)));
}

export function unzigzag(w, u) {
  if (!w.signed) return u;
  return (u >> 1n) ^ -(u & 1n);
}

export function encode(w, value) {
  const u = zigzag(w, BigInt(value));
  if (u < w.offsets[1]) return [Number(u)];
  let t = 1;
  while (u >= w.offsets[t + 1]) t++;
  let payload = u - w.offsets[t];
  const bytes = new Array(t);
  for (let i = t - 1; i >= 0; i--) {
    bytes[i] = Number(payload & 0xffn);
    payload >>= 8n;
  }
  return [w.threshold - 1 + t, ...bytes];
}

// { value, length } or { error: 'truncated' | 'overflow' }.
export function decode(w, bytes, at = 0) {
  if (at >= bytes.length) return { error: 'truncated' };
  const b = bytes[at];
  if (b < w.threshold) return { value: unzigzag(w, BigInt(b)), length: 1 };
  const t = b - (w.threshold - 1);
  if (at + 1 + t > bytes.length) return { error: 'truncated' };
  let payload = 0n;
  for (let i = 1; i <= t; i++) payload = (payload << 8n) | BigInt(bytes[at + i]);
  const u = w.offsets[t] + payload;
  if (u > w.max) return { error: 'overflow' };
  return { value: unzigzag(w, u), length: 1 + t };
}
