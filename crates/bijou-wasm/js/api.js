// The package's API over the raw wasm-bindgen exports: argument checks that throw
// TypeError and RangeError, bijou decode failures as BijouDecodeError, the
// 128-bit widths' batches packed into 64-bit lanes, and the Sha1 class.

import { BijouDecodeError, Sha1CollisionError } from './errors.js';

const U64 = 2n ** 64n;

// The most bytes a varint batch call copies into the wasm memory: past it
// they throw RangeError (an allocation failure inside wasm would be a trap).
const MAX_COPY = 2 ** 30;
// SHA-1 hashes longer inputs in pieces of this size.
const HASH_PIECE = 2 ** 20;

// Per width: the JS type of its values, their range, the typed array
// `decodeAll` returns and `encodeAll` takes as is (none for the 128-bit
// widths, whose values cross as low/high pairs in a BigUint64Array), and the
// longest encoding.
const WIDTHS = {
  32: { type: 'number', min: 0, max: 2 ** 32 - 1, array: Uint32Array, maxBytes: 5 },
  '32s': { type: 'number', min: -(2 ** 31), max: 2 ** 31 - 1, array: Int32Array, maxBytes: 5 },
  64: { type: 'bigint', min: 0n, max: U64 - 1n, array: BigUint64Array, maxBytes: 9 },
  '64s': { type: 'bigint', min: -(2n ** 63n), max: 2n ** 63n - 1n, array: BigInt64Array, maxBytes: 9 },
  128: { type: 'bigint', min: 0n, max: 2n ** 128n - 1n, array: null, maxBytes: 17 },
  '128s': { type: 'bigint', min: -(2n ** 127n), max: 2n ** 127n - 1n, array: null, maxBytes: 17 },
};

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an Array';
  if (typeof value === 'object') return `a ${value[Symbol.toStringTag] ?? value.constructor?.name ?? 'object'}`;
  if (typeof value === 'bigint') return `the bigint ${value}n`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return 'a string';
  return `${typeof value} ${String(value)}`;
}

function isTypedArray(value, kind) {
  return ArrayBuffer.isView(value) && value[Symbol.toStringTag] === kind;
}

function checkBytes(bytes, name) {
  if (!isTypedArray(bytes, 'Uint8Array')) {
    throw new TypeError(
      `${name} must be a Uint8Array, got ${describe(bytes)}` +
        (typeof bytes === 'string' ? ' (encode text with TextEncoder first)' : ''),
    );
  }
}

function hex(bytes) {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** The API over `raw`, the instantiated wasm-bindgen module. */
export function bind(raw) {
  const api = {};

  // The error a thrown raw Failure stands for; anything else is rethrown.
  function failureError(failure, base) {
    if (!(failure instanceof raw.Failure)) throw failure;
    const { message, kind, offset } = failure;
    failure.free();
    return kind === 'too-large' ? new RangeError(message) : new BijouDecodeError(message, kind, base + offset);
  }

  function checkCopy(view, name) {
    if (view.byteLength > MAX_COPY) {
      throw new RangeError(`${name} is ${view.byteLength} bytes, more than the ${MAX_COPY} one call takes; pass it in parts`);
    }
    return view;
  }

  for (const [width, spec] of Object.entries(WIDTHS)) {
    const name = `bijou${width}`;
    const encode = raw[`encode_${width}`];
    const encodedLen = raw[`encoded_len_${width}`];
    const lenFromTag = raw[`len_from_tag_${width}`];
    const decode = raw[`decode_${width}`];
    const encodeAll = raw[`encode_all_${width}`];
    const decodeAll = raw[`decode_all_${width}`];
    const arrayKind = spec.array?.name;
    const range = `${spec.min}..=${spec.max}`;

    const check = (value, what) => {
      if (typeof value !== spec.type) {
        throw new TypeError(`${what} must be a ${spec.type} for ${name}, got ${describe(value)}`);
      }
      if ((spec.type === 'number' && !Number.isInteger(value)) || value < spec.min || value > spec.max) {
        throw new RangeError(`${what} ${value} is outside ${name}'s range (integers ${range})`);
      }
      return value;
    };

    // The values as the typed array `encode_all_W` takes, checked.
    const packed = (values) => {
      if (arrayKind && isTypedArray(values, arrayKind)) return values;
      if (values === null || typeof values !== 'object' || typeof values[Symbol.iterator] !== 'function') {
        const kinds = arrayKind ? `a ${arrayKind} or an iterable` : 'an iterable';
        throw new TypeError(`values must be ${kinds} of ${spec.type}s for ${name}, got ${describe(values)}`);
      }
      const list = Array.from(values);
      list.forEach((value, index) => check(value, `values[${index}]`));
      if (spec.array) return spec.array.from(list);
      const pairs = new BigUint64Array(2 * list.length);
      list.forEach((value, index) => {
        pairs[2 * index] = BigInt.asUintN(64, value);
        pairs[2 * index + 1] = BigInt.asUintN(64, value >> 64n);
      });
      return pairs;
    };

    const unpacked = spec.array
      ? (values) => values
      : (pairs) => {
          const values = new Array(pairs.length / 2);
          for (let i = 0; i < values.length; i++) {
            const bits = pairs[2 * i] | (pairs[2 * i + 1] << 64n);
            values[i] = spec.min < 0n ? BigInt.asIntN(128, bits) : bits;
          }
          return values;
        };

    api[`encode${width}`] = (value) => encode(check(value, 'value'));
    api[`encodedLen${width}`] = (value) => encodedLen(check(value, 'value'));
    api[`encodeAll${width}`] = (values) => {
      const input = checkCopy(packed(values), 'values');
      try {
        return encodeAll(input);
      } catch (failure) {
        throw failureError(failure, 0);
      }
    };
    api[`decode${width}`] = (bytes, offset = 0) => {
      checkBytes(bytes, 'bytes');
      if (typeof offset !== 'number') {
        throw new TypeError(`offset must be a number, got ${describe(offset)}`);
      }
      if (!Number.isInteger(offset) || offset < 0 || offset > bytes.length) {
        throw new RangeError(`offset ${offset} is outside the input (integers 0..=${bytes.length})`);
      }
      const view = bytes.subarray(offset, offset + spec.maxBytes);
      let value;
      try {
        value = decode(view);
      } catch (failure) {
        throw failureError(failure, offset);
      }
      return { value, bytesRead: lenFromTag(view[0]) };
    };
    api[`decodeAll${width}`] = (bytes) => {
      checkBytes(bytes, 'bytes');
      checkCopy(bytes, 'bytes');
      try {
        return unpacked(decodeAll(bytes));
      } catch (failure) {
        throw failureError(failure, 0);
      }
    };
  }

  // Long inputs go to the incremental hashers a piece at a time, so the
  // wasm memory never grows to hold a whole file.
  const feed = (hasher, bytes) => {
    for (let at = 0; at < bytes.length; at += HASH_PIECE) hasher.update(bytes.subarray(at, at + HASH_PIECE));
    return hasher;
  };

  api.sha1 = (bytes) => {
    checkBytes(bytes, 'bytes');
    if (bytes.length <= HASH_PIECE) return raw.sha1(bytes);
    const hasher = feed(new raw.Sha1Hasher(), bytes);
    const digest = hasher.digest();
    hasher.free();
    return digest;
  };
  api.sha1Hex = (bytes) => hex(api.sha1(bytes));
  api.sha1Checked = (bytes) => {
    checkBytes(bytes, 'bytes');
    try {
      return bytes.length <= HASH_PIECE ? raw.sha1_checked(bytes) : feed(new raw.CheckedHasher(), bytes).finish();
    } catch (found) {
      if (!(found instanceof raw.CollisionFound)) throw found;
      const error = new Sha1CollisionError(found.message, found.digest, found.mitigated);
      found.free();
      throw error;
    }
  };

  /** An incremental SHA-1: `update` as often as needed, then `digest`. */
  api.Sha1 = class Sha1 {
    #hasher = new raw.Sha1Hasher();

    /** Hashes `bytes` after everything before it; returns this hasher. */
    update(bytes) {
      checkBytes(bytes, 'bytes');
      feed(this.#hasher, bytes);
      return this;
    }

    /** SHA-1 of everything so far (20 bytes); the hasher can go on. */
    digest() {
      return this.#hasher.digest();
    }

    /** `digest()` as 40 lowercase hex digits. */
    digestHex() {
      return hex(this.digest());
    }
  };

  return api;
}
