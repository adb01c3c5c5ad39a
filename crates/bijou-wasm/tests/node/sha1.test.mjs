import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as pkg from '../../pkg/index.js';
import { builds } from './builds.mjs';
import { rng } from './rng.mjs';

const nodeSha1 = (bytes) => createHash('sha1').update(bytes).digest();
const r = rng(1);
// Every length around the block and padding boundaries, then larger ones.
// Past 1 MiB the package hashes in 1 MiB pieces: lengths on both sides.
const lengths = [...Array.from({ length: 200 }, (_, i) => i), 1000, 4095, 4096, 65536 + 7, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 5];

test('Node loads the Wasm SIMD build', () => {
  assert.equal(pkg.flavor, 'simd');
});

test('sha1 and sha1Hex agree with node:crypto, in both builds', () => {
  for (const length of lengths) {
    const bytes = r.bytes(length);
    const expected = nodeSha1(bytes);
    for (const [build, api] of Object.entries(builds)) {
      const digest = api.sha1(bytes);
      assert.ok(digest instanceof Uint8Array && digest.length === 20);
      assert.deepEqual(Buffer.from(digest), expected, `${build} sha1 of ${length} bytes`);
      assert.equal(api.sha1Hex(bytes), expected.toString('hex'));
    }
  }
  assert.equal(pkg.sha1Hex(new TextEncoder().encode('abc')), 'a9993e364706816aba3e25717850c26c9cd0d89d');
});

test('both builds agree on random inputs of up to 80 blocks', () => {
  // The SIMD build's kernel against the baseline's scalar core (and
  // node:crypto): every block count and tail, the next block read ahead.
  for (let i = 0; i < 300; i++) {
    const bytes = r.bytes(r.int(80 * 64));
    const expected = nodeSha1(bytes);
    for (const [build, api] of Object.entries(builds)) {
      assert.deepEqual(Buffer.from(api.sha1(bytes)), expected, `${build} sha1 of ${bytes.length} bytes`);
    }
  }
});

test('Sha1 hashes data given in any pieces, and digest leaves it going, in both builds', () => {
  for (const [length, api] of [0, 1, 63, 64, 65, 1000, 100_000, 2 * (1 << 20) + 3].flatMap(
    (length) => Object.values(builds).map((api) => [length, api]))) {
    const bytes = r.bytes(length);
    const hasher = new api.Sha1();
    let at = 0;
    while (at < length) {
      // Small pieces, and now and then one past the 1 MiB hashing piece.
      const end = Math.min(length, at + (r.int(20) === 0 ? (1 << 20) + r.int(100) : r.int(150)));
      assert.equal(hasher.update(bytes.subarray(at, end)), hasher, 'update is chainable');
      at = end;
    }
    const expected = nodeSha1(bytes);
    assert.deepEqual(Buffer.from(hasher.digest()), expected);
    assert.equal(hasher.digestHex(), expected.toString('hex'));
    // More data after a digest continues the same message.
    hasher.update(Uint8Array.of(1, 2));
    assert.deepEqual(Buffer.from(hasher.digest()), nodeSha1(Buffer.concat([bytes, Buffer.of(1, 2)])));
  }
  const chained = new pkg.Sha1().update(new TextEncoder().encode('a')).update(new TextEncoder().encode('bc'));
  assert.equal(chained.digestHex(), 'a9993e364706816aba3e25717850c26c9cd0d89d');
});

test('SHA-1 inputs must be Uint8Arrays', () => {
  for (const bad of ['abc', null, undefined, 42, [1, 2], new ArrayBuffer(4), new Uint32Array(1), {}]) {
    assert.throws(() => pkg.sha1(bad), TypeError);
    assert.throws(() => pkg.sha1Hex(bad), TypeError);
    assert.throws(() => new pkg.Sha1().update(bad), TypeError);
  }
  assert.throws(() => pkg.sha1('abc'), /TextEncoder/);
  assert.equal(pkg.sha1Hex(Buffer.from('abc')), 'a9993e364706816aba3e25717850c26c9cd0d89d');
});

// The published collisions (vectors/sha1-collisions/, copied from
// ../shared/vectors/): plain SHA-1 from the folder's README, mitigated
// digests as sha1collisiondetection's sha1dcsum prints them.
const ATTACKS = [
  ['shattered-1.pdf', '38762cf7f55934b34d179ae6a4c80cadccbb7f0a', '16e96b70000dd1e7c85b8368ee197754400e58ec'],
  ['shattered-2.pdf', '38762cf7f55934b34d179ae6a4c80cadccbb7f0a', 'e1761773e6a35916d99f891b77663e6405313587'],
  ['sha-mbles-1.bin', '8ac60ba76f1999a1ab70223f225aefdc78d4ddc0', '4f3d9be4a472c4dae83c6314aa6c36a064c1fd14'],
  ['sha-mbles-2.bin', '8ac60ba76f1999a1ab70223f225aefdc78d4ddc0', '9ed5d77a4f48be1dbf3e9e15650733eb850897f2'],
];
const collision = (file) => readFileSync(new URL(`../../../../vectors/sha1-collisions/${file}`, import.meta.url));

test('sha1Checked flags every published collision with both digests, in both builds', () => {
  for (const [[file, plain, mitigated], [build, api]] of ATTACKS.flatMap(
    (attack) => Object.entries(builds).map((build) => [attack, build]))) {
    const bytes = collision(file);
    assert.equal(nodeSha1(bytes).toString('hex'), plain, file);
    assert.equal(api.sha1Hex(bytes), plain, `${build} sha1 does not check: ${file}`);
    assert.throws(() => api.sha1Checked(bytes), (error) => {
      assert.ok(error instanceof pkg.Sha1CollisionError);
      assert.equal(error.name, 'Sha1CollisionError');
      assert.equal(error.digest, plain);
      assert.equal(error.mitigated, mitigated);
      assert.match(error.message, /collision attack detected/);
      return true;
    }, `${build}: ${file}`);
  }
});

test('sha1Checked is plain SHA-1 on everything else, in both builds', () => {
  for (const length of [0, 1, 55, 56, 64, 1000, 65536 + 3, (1 << 20) + 1, 2 * (1 << 20) + 9]) {
    const bytes = r.bytes(length);
    for (const [build, api] of Object.entries(builds)) {
      assert.deepEqual(Buffer.from(api.sha1Checked(bytes)), nodeSha1(bytes), `${build}: ${length} bytes`);
    }
  }
  // A collision file cut short no longer carries a whole attack block pair.
  const prefix = collision('shattered-1.pdf').subarray(0, 192);
  assert.deepEqual(Buffer.from(pkg.sha1Checked(prefix)), nodeSha1(prefix));
  for (const bad of ['abc', null, [1], new ArrayBuffer(1)]) assert.throws(() => pkg.sha1Checked(bad), TypeError);
});

test('sha1Checked flags an attack in an input hashed in pieces', () => {
  // Past 1 MiB the input goes through the incremental checked hasher.
  const bytes = Buffer.concat([collision('shattered-1.pdf'), Buffer.alloc(1 << 20, 0x5a)]);
  assert.throws(() => pkg.sha1Checked(bytes), (error) => {
    assert.ok(error instanceof pkg.Sha1CollisionError);
    assert.equal(error.digest, nodeSha1(bytes).toString('hex'));
    assert.notEqual(error.mitigated, error.digest);
    return true;
  });
});
