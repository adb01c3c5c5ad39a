import test from 'node:test';
import assert from 'node:assert/strict';
import * as pkg from '../../pkg/index.js';
import { builds } from './builds.mjs';
import { rng } from './rng.mjs';
import * as ref from './reference.mjs';

const WIDTHS = ['32', '32s', '64', '64s', '128', '128s'];
const ARRAYS = { 32: Uint32Array, '32s': Int32Array, 64: BigUint64Array, '64s': BigInt64Array, 128: Array, '128s': Array };
const isNumber = (w) => w.startsWith('32');
const js = (w, v) => (isNumber(w) ? Number(v) : BigInt(v));
const hex = (s) => Uint8Array.from(s.split(/\s+/).filter(Boolean).map((b) => parseInt(b, 16)));
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');

// Tables of /work/shared/specs/bijou-format.md (upstream's SPEC.md vectors).
const VECTORS = {
  64: [
    [0n, '00'], [1n, '01'], [42n, '2A'], [247n, 'F7'], [248n, 'F8 00'], [300n, 'F8 34'], [503n, 'F8 FF'],
    [504n, 'F9 00 00'], [1000n, 'F9 01 F0'], [65535n, 'F9 FE 07'], [66039n, 'F9 FF FF'], [66040n, 'FA 00 00 00'],
    [67000n, 'FA 00 03 C0'], [16843255n, 'FA FF FF FF'], [16843256n, 'FB 00 00 00 00'],
    [4311810551n, 'FB FF FF FF FF'], [72340172838076920n, 'FF 00 00 00 00 00 00 00 00'],
    [18446744073709551615n, 'FF FE FE FE FE FE FE FE 07'],
  ],
  32: [
    [0, '00'], [251, 'FB'], [252, 'FC 00'], [300, 'FC 30'], [507, 'FC FF'], [508, 'FD 00 00'], [1000, 'FD 01 EC'],
    [65535, 'FD FE 03'], [66043, 'FD FF FF'], [66044, 'FE 00 00 00'], [67000, 'FE 00 03 BC'],
    [16843260, 'FF 00 00 00 00'], [4294967295, 'FF FE FE FE 03'],
  ],
  128: [
    [0n, '00'], [239n, 'EF'], [240n, 'F0 00'], [300n, 'F0 3C'], [495n, 'F0 FF'], [496n, 'F1 00 00'],
    [1000n, 'F1 01 F8'], [65535n, 'F1 FE 0F'], [66031n, 'F1 FF FF'], [66032n, 'F2 00 00 00'],
    [67000n, 'F2 00 03 C8'], [16843247n, 'F2 FF FF FF'], [16843248n, 'F3 00 00 00 00'],
    [4311810543n, 'F3 FF FF FF FF'], [72340172838076912n, 'F7 00 00 00 00 00 00 00 00'],
    [1334440654591915542993625911497130480n, 'FF' + ' 00'.repeat(16)],
    [340282366920938463463374607431768211455n, 'FF' + ' FE'.repeat(15) + ' 0F'],
  ],
};
const SPEC_ERRORS = {
  64: [['', 'truncated'], ['F9 00', 'truncated'], ['FF FF FF FF FF FF FF FF FF', 'overflow']],
  32: [['FF FF FF FF FF', 'overflow'], ['FD 00', 'truncated']],
  128: [['F1 00', 'truncated'], ['FF' + ' FF'.repeat(16), 'overflow']],
};

// Values at every tier's edges (first and last value), the width's ends,
// and, for the signed widths, the values whose zigzag forms are those.
function edges(name) {
  const w = ref.width(name);
  const unsigned = new Set([0n, w.max]);
  for (const offset of w.offsets.slice(1)) {
    for (const u of [offset - 1n, offset]) if (u <= w.max) unsigned.add(u);
  }
  const values = [...unsigned].map((u) => ref.unzigzag(w, u));
  if (w.signed) values.push(w.min, w.top, -1n, 1n);
  return values;
}

function assertDecodeError(fn, kind, offset, message) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof pkg.BijouDecodeError, `not a BijouDecodeError: ${error}`);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'BijouDecodeError');
    assert.equal(error.kind, kind);
    if (offset !== undefined) assert.equal(error.offset, offset);
    if (message !== undefined) assert.match(error.message, message);
    return true;
  });
}

test('the package exports exactly the documented API', () => {
  const expected = ['BijouDecodeError', 'Sha1', 'Sha1CollisionError', 'flavor', 'sha1', 'sha1Checked', 'sha1Hex'];
  for (const w of WIDTHS) {
    for (const f of ['encode', 'decode', 'decodeAll', 'encodeAll', 'encodedLen']) expected.push(`${f}${w}`);
  }
  assert.deepEqual(Object.keys(pkg).sort(), expected.sort());
  for (const name of expected.filter((name) => name !== 'flavor')) assert.equal(typeof pkg[name], 'function', name);
});

test('spec vectors encode and decode', () => {
  for (const [w, vectors] of Object.entries(VECTORS)) {
    for (const [value, bytes] of vectors) {
      const expected = hex(bytes);
      assert.deepEqual(pkg[`encode${w}`](value), expected, `encode${w}(${value})`);
      assert.equal(pkg[`encodedLen${w}`](value), expected.length);
      assert.deepEqual(pkg[`decode${w}`](expected), { value, bytesRead: expected.length });
    }
    for (const [bytes, kind] of SPEC_ERRORS[w]) assertDecodeError(() => pkg[`decode${w}`](hex(bytes)), kind, 0);
  }
  assert.deepEqual(pkg.encode32s(-300), hex('FD 00 5B'));
  assert.deepEqual(pkg.encode64s(-300n), hex('F9 00 5F'));
  assert.deepEqual(pkg.encode128s(-300n), hex('F1 00 67'));
});

test('every tier edge of every width matches the reference', () => {
  for (const w of WIDTHS) {
    const width = ref.width(w);
    const values = edges(w);
    const all = [];
    for (const v of values) {
      const value = js(w, v);
      const expected = ref.encode(width, v);
      const label = `${w} ${v}`;
      assert.deepEqual(Array.from(pkg[`encode${w}`](value)), expected, label);
      assert.equal(pkg[`encodedLen${w}`](value), expected.length, label);
      const framed = Uint8Array.from([0xaa, ...expected, 0xbb]);
      assert.deepEqual(pkg[`decode${w}`](framed, 1), { value, bytesRead: expected.length }, label);
      // One byte short of each value: truncated, at the value's offset.
      assertDecodeError(() => pkg[`decode${w}`](framed.subarray(0, expected.length), 1), 'truncated', 1);
      all.push(...expected);
    }
    const decoded = pkg[`decodeAll${w}`](Uint8Array.from(all));
    assert.ok(decoded instanceof ARRAYS[w], `decodeAll${w} type`);
    assert.deepEqual(Array.from(decoded), values.map((v) => js(w, v)));
    assert.deepEqual(Array.from(pkg[`encodeAll${w}`](values.map((v) => js(w, v)))), all);
  }
});

test('random values and random bytes agree with the reference, in both builds', () => {
  const r = rng(2026);
  for (const [w, api] of WIDTHS.flatMap((w) => Object.values(builds).map((api) => [w, api]))) {
    const width = ref.width(w);
    // Values of every magnitude: a random bit length, then random bits.
    const values = Array.from({ length: 2000 }, () => {
      const u = r.bits(width.bits) >> BigInt(r.int(width.bits));
      return js(w, ref.unzigzag(width, u));
    });
    const expected = values.flatMap((v) => ref.encode(width, BigInt(v)));
    const input = ARRAYS[w] === Array ? values : ARRAYS[w].from(values);
    assert.deepEqual(Array.from(api[`encodeAll${w}`](input)), expected, `encodeAll${w}`);
    for (const v of values.slice(0, 300)) {
      assert.deepEqual(Array.from(api[`encode${w}`](v)), ref.encode(width, BigInt(v)));
    }
    assert.deepEqual(Array.from(api[`decodeAll${w}`](Uint8Array.from(expected))), values);

    // Random bytes, biased towards tags: every outcome, errors included.
    for (let i = 0; i < 3000; i++) {
      const bytes = r.bytes(r.int(20));
      if (bytes.length > 0 && r.int(2)) bytes[0] = width.threshold + r.int(256 - width.threshold);
      const want = ref.decode(width, bytes);
      if (want.error) {
        assertDecodeError(() => api[`decode${w}`](bytes), want.error, 0);
      } else {
        assert.deepEqual(api[`decode${w}`](bytes), { value: js(w, want.value), bytesRead: want.length });
      }
    }

    // decodeAll of random streams: the reference's values, or its first error.
    for (let i = 0; i < 300; i++) {
      const bytes = r.bytes(r.int(200));
      for (let j = 0; j < bytes.length; j++) if (r.int(3) === 0) bytes[j] = 256 - 1 - r.int(width.tiers);
      const values = [];
      let at = 0;
      let failure = null;
      while (at < bytes.length) {
        const got = ref.decode(width, bytes, at);
        if (got.error) {
          failure = { kind: got.error, offset: at };
          break;
        }
        values.push(js(w, got.value));
        at += got.length;
      }
      if (failure) {
        assertDecodeError(() => api[`decodeAll${w}`](bytes), failure.kind, failure.offset);
      } else {
        assert.deepEqual(Array.from(api[`decodeAll${w}`](bytes)), values);
      }
    }
  }
});

test('decode errors carry the Rust message, kind and offset', () => {
  assertDecodeError(
    () => pkg.decode64(hex('F9 00')),
    'truncated',
    0,
    // bijou-core's message, with the counts of this input.
    /^truncated bijou value: 3 bytes needed, (only )?2 available/,
  );
  assertDecodeError(() => pkg.decode64(new Uint8Array(0)), 'truncated', 0, undefined);
  assert.match(
    (() => { try { pkg.decode64(new Uint8Array(0)); } catch (e) { return e.message; } })(),
    /^truncated bijou value: 1 byte needed, (only )?0 available/,
  );
  assertDecodeError(() => pkg.decode64(hex('01 02'), 2), 'truncated', 2);
  assertDecodeError(
    () => pkg.decode64(hex('01 FF FF FF FF FF FF FF FF FF'), 1),
    'overflow',
    1,
    /^bijou value overflows /,
  );
  // decodeAll is all or nothing, and says where the bad value starts.
  assertDecodeError(
    () => pkg.decodeAll64(hex('01 02 FF FF FF FF FF FF FF FF FF')),
    'overflow',
    2,
    /^bijou value at byte offset 2 overflows .*\(2 values/,
  );
  assertDecodeError(() => pkg.decodeAll64(hex('01 02 F9 00')), 'truncated', 2);
  assertDecodeError(() => pkg.decodeAll32s(hex('FF FF FF FF FF')), 'overflow', 0);
  assertDecodeError(() => pkg.decodeAll128(hex('05 FF' + ' FF'.repeat(16))), 'overflow', 1);
  assertDecodeError(() => pkg.decodeAll128s(hex('F1')), 'truncated', 0);
  assert.deepEqual(Array.from(pkg.decodeAll64(new Uint8Array(0))), []);
  // A decode reads only its own value: bytes after it are not looked at.
  assert.deepEqual(pkg.decode32(hex('FC 30 FF')), { value: 300, bytesRead: 2 });
});

test('values of the wrong type throw TypeError, outside the range RangeError', () => {
  const bad = {
    32: { type: [1n, '1', null, undefined, {}, [1], true], range: [-1, 2 ** 32, 1.5, NaN, Infinity, -Infinity] },
    '32s': { type: [1n, '1', null], range: [-(2 ** 31) - 1, 2 ** 31, 0.5, NaN] },
    64: { type: [1, '1', null, undefined, 1.5], range: [-1n, 2n ** 64n] },
    '64s': { type: [1, '1', {}], range: [-(2n ** 63n) - 1n, 2n ** 63n] },
    128: { type: [1, '1', null], range: [-1n, 2n ** 128n] },
    '128s': { type: [1, '1', null], range: [-(2n ** 127n) - 1n, 2n ** 127n] },
  };
  for (const [w, { type, range }] of Object.entries(bad)) {
    for (const f of ['encode', 'encodedLen']) {
      for (const v of type) assert.throws(() => pkg[`${f}${w}`](v), TypeError, `${f}${w}(${String(v)})`);
      for (const v of range) assert.throws(() => pkg[`${f}${w}`](v), RangeError, `${f}${w}(${String(v)})`);
    }
    for (const v of type) assert.throws(() => pkg[`encodeAll${w}`]([js(w, 1), v]), /values\[1\] must be/);
    for (const v of range) assert.throws(() => pkg[`encodeAll${w}`]([v]), (e) => e instanceof RangeError && /values\[0\]/.test(e.message));
    for (const v of [5, 5n, 'abc', null, undefined, {}]) assert.throws(() => pkg[`encodeAll${w}`](v), TypeError);
    for (const v of ['00', [0], null, undefined, new Uint16Array(2), new ArrayBuffer(2), 0]) {
      assert.throws(() => pkg[`decode${w}`](v), TypeError);
      assert.throws(() => pkg[`decodeAll${w}`](v), TypeError);
    }
    const bytes = hex('00 01');
    for (const offset of ['1', 1n, null]) assert.throws(() => pkg[`decode${w}`](bytes, offset), TypeError);
    for (const offset of [-1, 3, 1.5, NaN, Infinity]) assert.throws(() => pkg[`decode${w}`](bytes, offset), RangeError);
  }
  // More than 1 GiB for one call to copy into wasm memory (the arrays stay
  // untouched, so the pages are never committed).
  assert.throws(() => pkg.decodeAll64(new Uint8Array(2 ** 30 + 1)), /pass it in parts/);
  assert.throws(() => pkg.encodeAll64(new BigUint64Array(2 ** 27 + 1)), RangeError);
  // -0 is the integer 0; a Buffer is a Uint8Array.
  assert.deepEqual(pkg.encode32(-0), hex('00'));
  assert.deepEqual(pkg.decode64(Buffer.from([0xf8, 0x34])), { value: 300n, bytesRead: 2 });
});

test('encodeAll takes its typed array, any iterable, and other typed arrays by value', () => {
  assert.deepEqual(pkg.encodeAll32(new Uint32Array([1, 300])), hex('01 FC 30'));
  assert.deepEqual(pkg.encodeAll32(new Set([1, 300])), hex('01 FC 30'));
  assert.deepEqual(pkg.encodeAll32(new Uint16Array([1, 300])), hex('01 FC 30'));
  assert.throws(() => pkg.encodeAll32(new Int32Array([-1])), RangeError);
  assert.deepEqual(pkg.encodeAll64s(new BigInt64Array([-1n, 0n])), hex('01 00'));
  assert.deepEqual(pkg.encodeAll128((function* () { yield 300n; yield 0n; })()), hex('F0 3C 00'));
  assert.deepEqual(pkg.encodeAll128s([-1n, 2n ** 127n - 1n]).length, 1 + 17);
  assert.deepEqual(pkg.encodeAll64([]), new Uint8Array(0));
  assert.deepEqual(pkg.decodeAll128s(pkg.encodeAll128s([-(2n ** 127n), -1n, 0n])), [-(2n ** 127n), -1n, 0n]);
});

test('no input ends in a wasm trap', () => {
  const r = rng(7);
  const inputs = [undefined, null, 0, -1, 2 ** 53, 1n, -1n, 2n ** 200n, 'x', {}, [], [1n], new Uint8Array(0),
    r.bytes(64), new Uint8Array(1 << 14).fill(0xff), Symbol('s'), () => 1];
  for (const [name, f] of Object.entries(pkg)) {
    if (typeof f !== 'function' || name === 'Sha1' || name.endsWith('Error')) continue;
    for (const a of inputs) {
      for (const b of [undefined, 0, 1, -1, 'x']) {
        try {
          f(a, b);
        } catch (error) {
          assert.ok(
            error instanceof TypeError || error instanceof RangeError || error?.name === 'BijouDecodeError',
            `${name}(${typeof a}, ${String(b)}) threw ${error}`,
          );
        }
      }
    }
  }
});
