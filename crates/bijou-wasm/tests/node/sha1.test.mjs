import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as pkg from '../../pkg/index.js';
import { builds, rng } from './builds.mjs';

const nodeSha1 = (bytes) => createHash('sha1').update(bytes).digest();
const r = rng(1);
// Every length around the block and padding boundaries, then larger ones.
const lengths = [...Array.from({ length: 200 }, (_, i) => i), 1000, 4095, 4096, 65536 + 7, 1 << 20];

test('sha1 and sha1Hex agree with node:crypto, in both builds', () => {
  for (const [build, api] of Object.entries(builds)) {
    for (const length of lengths) {
      const bytes = r.bytes(length);
      const expected = nodeSha1(bytes);
      const digest = api.sha1(bytes);
      assert.ok(digest instanceof Uint8Array && digest.length === 20);
      assert.deepEqual(Buffer.from(digest), expected, `${build} sha1 of ${length} bytes`);
      assert.equal(api.sha1Hex(bytes), expected.toString('hex'));
    }
  }
  assert.equal(pkg.sha1Hex(new TextEncoder().encode('abc')), 'a9993e364706816aba3e25717850c26c9cd0d89d');
});

test('Sha1 hashes data given in any pieces, and digest leaves it going', () => {
  for (const api of [pkg, ...Object.values(builds)]) {
    for (const length of [0, 1, 63, 64, 65, 1000, 100_000]) {
      const bytes = r.bytes(length);
      const hasher = new api.Sha1();
      let at = 0;
      while (at < length) {
        const end = Math.min(length, at + r.int(150));
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
