// `cargo xtask wasm --bench`: bijou-wasm against the npm packages a JS user
// would otherwise reach for, in Node (`browser.mjs` runs the SHA-1 part in
// Chromium). Timing and ratios as in `race.mjs`. ROUNDS=N sets the rounds
// (default 31).
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';
import varint from 'varint';
import protobuf from 'protobufjs/minimal.js';
import { createSHA1 } from 'hash-wasm';
import { sha1 as nobleSha1 } from '@noble/hashes/legacy.js';
import * as bijou from '../pkg/index.js';
import { bind } from '../pkg/api.js';
import { load } from '../pkg/load.js';
import { SHA1_SIZES, mibPerSecond, race, report, sha1Input, sizeName } from './race.mjs';

const baseline = bind(await load('baseline'));

const ROUNDS = Number(process.env.ROUNDS ?? 31);

// Deterministic values of mixed sizes, all below 2^53 so that `varint`
// (which decodes to a Number) is exact: half below 2^7, then 2^14, 2^32
// and 2^53 at 25%, 15% and 10%.
function values(count) {
  let s = 0x2545f491;
  const next = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  return Float64Array.from({ length: count }, () => {
    const p = next();
    const bits = p < 0.5 ? 7 : p < 0.75 ? 14 : p < 0.9 ? 32 : 53;
    return Math.floor(next() * 2 ** bits);
  });
}

// decodeAll64 of 100k values, against LEB128 decode loops of the same values.
const COUNT = 100_000;
const numbers = values(COUNT);
const bigints = BigUint64Array.from(numbers, BigInt);
const bijouBytes = bijou.encodeAll64(bigints);
const lebBytes = (() => {
  const writer = protobuf.Writer.create();
  for (const n of numbers) writer.uint64(n);
  return writer.finish();
})();
// The peers collect their values into a fresh Array, as decodeAll64 returns
// a fresh BigUint64Array; the last row shows varint writing into a reused
// buffer instead, which no all-values API can do.
let decoded;
const varintLoop = () => {
  decoded = [];
  let offset = 0;
  while (offset < lebBytes.length) {
    decoded.push(varint.decode(lebBytes, offset));
    offset += varint.decode.bytes;
  }
};
const reused = new Float64Array(COUNT);
const varintReused = () => {
  let offset = 0;
  for (let i = 0; i < COUNT; i++) {
    reused[i] = varint.decode(lebBytes, offset);
    offset += varint.decode.bytes;
  }
};
let longs;
const protobufLoop = () => {
  longs = [];
  const reader = protobuf.Reader.create(lebBytes);
  while (reader.pos < reader.len) longs.push(reader.uint64());
};
// Every candidate decodes the same values before any is timed.
varintLoop();
varintReused();
protobufLoop();
if (decoded.length !== COUNT || longs.length !== COUNT) throw new Error('LEB128 peers miscounted');
for (let i = 0; i < COUNT; i++) {
  const long = longs[i];
  const fromLong = typeof long === 'number' ? long : long.toNumber();
  if (decoded[i] !== numbers[i] || reused[i] !== numbers[i] || fromLong !== numbers[i]) throw new Error(`LEB128 peers disagree at ${i}`);
}
// For scale, not a peer: what decodeAll64 pays after decoding, 100k values
// copied out of the wasm memory into a fresh BigUint64Array.
const copySource = new BigUint64Array(COUNT);
const copyOut = () => copySource.slice();
const checkAll = bijou.decodeAll64(bijouBytes);
if (checkAll.some((v, i) => v !== bigints[i])) throw new Error('decodeAll64 disagrees');

console.log(`bijou-wasm bench: Node ${process.version}, ${cpus()[0].model}, ${ROUNDS} rounds`);
console.log("ratios: a peer's median time over ours (above 1: ours is faster)");
console.log(`${COUNT} values: ${bijouBytes.length} bytes as bijou64, ${lebBytes.length} as LEB128`);
const decodeTimes = race({
  'bijou-wasm decodeAll64': () => bijou.decodeAll64(bijouBytes),
  'varint decode loop': varintLoop,
  'protobufjs Reader.uint64 loop': protobufLoop,
  'varint loop, reused output buffer': varintReused,
  'copy 100k u64 to a new BigUint64Array': copyOut,
}, ROUNDS);
console.log(report('decode 100k mixed 64-bit values', decodeTimes, 'bijou-wasm decodeAll64',
  (ms) => `${(COUNT / ms / 1000).toFixed(1)} M/s`));

// SHA-1 of 1 KiB, 64 KiB and 1 MiB: both builds (the package loads the SIMD
// one here), the peers, and at 1 MiB collision detection.
const hashWasm = await createSHA1();
for (const size of SHA1_SIZES) {
  const data = sha1Input(size);
  const hashWasmSha1 = () => hashWasm.init().update(data).digest('binary');
  const expected = createHash('sha1').update(data).digest('hex');
  for (const [name, digest] of [[bijou.flavor, bijou.sha1(data)], ['baseline', baseline.sha1(data)],
    ['checked', bijou.sha1Checked(data)], ['hash-wasm', hashWasmSha1()], ['noble', nobleSha1(data)]]) {
    if (Buffer.from(digest).toString('hex') !== expected) throw new Error(`${name} sha1 disagrees with node:crypto`);
  }
  const ours = `bijou-wasm sha1 (${bijou.flavor} build)`;
  const times = race({
    [ours]: () => bijou.sha1(data),
    'bijou-wasm sha1 (baseline build)': () => baseline.sha1(data),
    'hash-wasm SHA-1': hashWasmSha1,
    '@noble/hashes sha1': () => nobleSha1(data),
    'node:crypto (native, for scale)': () => createHash('sha1').update(data).digest(),
    ...(size === 1 << 20 && { 'bijou-wasm sha1Checked (with detection)': () => bijou.sha1Checked(data) }),
  }, ROUNDS);
  console.log(report(`SHA-1 of ${sizeName(size)}`, times, ours, mibPerSecond(size)));
}
