// Types of bijou-wasm. Every decode failure throws BijouDecodeError; a
// value of the wrong type throws TypeError, one outside its width's range
// (or a non-integer number) RangeError.

/** A decoded value and the length of its encoding. */
export interface Decoded<T> {
  value: T;
  bytesRead: number;
}

/** A bijou decode failed. */
export class BijouDecodeError extends Error {
  readonly name: 'BijouDecodeError';
  /** `"truncated"`: the input ended before the value did; `"overflow"`: a top-tier value exceeds the width. */
  readonly kind: 'truncated' | 'overflow';
  /** Byte offset of the value that failed. */
  readonly offset: number;
}

/** `sha1Checked` detected a SHA-1 collision attack. */
export class Sha1CollisionError extends Error {
  readonly name: 'Sha1CollisionError';
  /** The plain SHA-1 of the input, 40 hex digits. */
  readonly digest: string;
  /** The digest collision detection substitutes, 40 hex digits. */
  readonly mitigated: string;
}

/** The build in use: Wasm SIMD (`"simd"`, simd128) or not (`"baseline"`). */
export const flavor: 'simd' | 'baseline';

// bijou32: unsigned 32-bit, 1–5 bytes
/** The encoding of `value`. */
export function encode32(value: number): Uint8Array;
/** The length in bytes of `value`'s encoding. */
export function encodedLen32(value: number): number;
/** The value whose encoding starts at `bytes[offset]`. */
export function decode32(bytes: Uint8Array, offset?: number): Decoded<number>;
/** Every value in `bytes` (all or nothing: any failure throws). */
export function decodeAll32(bytes: Uint8Array): Uint32Array;
/** The encodings of `values`, concatenated. */
export function encodeAll32(values: Uint32Array | Iterable<number>): Uint8Array;

// bijou32s: signed (zigzag) 32-bit, 1–5 bytes
/** The encoding of `value`. */
export function encode32s(value: number): Uint8Array;
/** The length in bytes of `value`'s encoding. */
export function encodedLen32s(value: number): number;
/** The value whose encoding starts at `bytes[offset]`. */
export function decode32s(bytes: Uint8Array, offset?: number): Decoded<number>;
/** Every value in `bytes` (all or nothing: any failure throws). */
export function decodeAll32s(bytes: Uint8Array): Int32Array;
/** The encodings of `values`, concatenated. */
export function encodeAll32s(values: Int32Array | Iterable<number>): Uint8Array;

// bijou64: unsigned 64-bit, 1–9 bytes
/** The encoding of `value`. */
export function encode64(value: bigint): Uint8Array;
/** The length in bytes of `value`'s encoding. */
export function encodedLen64(value: bigint): number;
/** The value whose encoding starts at `bytes[offset]`. */
export function decode64(bytes: Uint8Array, offset?: number): Decoded<bigint>;
/** Every value in `bytes` (all or nothing: any failure throws). */
export function decodeAll64(bytes: Uint8Array): BigUint64Array;
/** The encodings of `values`, concatenated. */
export function encodeAll64(values: BigUint64Array | Iterable<bigint>): Uint8Array;

// bijou64s: signed (zigzag) 64-bit, 1–9 bytes
/** The encoding of `value`. */
export function encode64s(value: bigint): Uint8Array;
/** The length in bytes of `value`'s encoding. */
export function encodedLen64s(value: bigint): number;
/** The value whose encoding starts at `bytes[offset]`. */
export function decode64s(bytes: Uint8Array, offset?: number): Decoded<bigint>;
/** Every value in `bytes` (all or nothing: any failure throws). */
export function decodeAll64s(bytes: Uint8Array): BigInt64Array;
/** The encodings of `values`, concatenated. */
export function encodeAll64s(values: BigInt64Array | Iterable<bigint>): Uint8Array;

// bijou128: unsigned 128-bit, 1–17 bytes
/** The encoding of `value`. */
export function encode128(value: bigint): Uint8Array;
/** The length in bytes of `value`'s encoding. */
export function encodedLen128(value: bigint): number;
/** The value whose encoding starts at `bytes[offset]`. */
export function decode128(bytes: Uint8Array, offset?: number): Decoded<bigint>;
/** Every value in `bytes` (all or nothing: any failure throws). */
export function decodeAll128(bytes: Uint8Array): bigint[];
/** The encodings of `values`, concatenated. */
export function encodeAll128(values: Iterable<bigint>): Uint8Array;

// bijou128s: signed (zigzag) 128-bit, 1–17 bytes
/** The encoding of `value`. */
export function encode128s(value: bigint): Uint8Array;
/** The length in bytes of `value`'s encoding. */
export function encodedLen128s(value: bigint): number;
/** The value whose encoding starts at `bytes[offset]`. */
export function decode128s(bytes: Uint8Array, offset?: number): Decoded<bigint>;
/** Every value in `bytes` (all or nothing: any failure throws). */
export function decodeAll128s(bytes: Uint8Array): bigint[];
/** The encodings of `values`, concatenated. */
export function encodeAll128s(values: Iterable<bigint>): Uint8Array;

/** SHA-1 of `bytes`: 20 bytes. */
export function sha1(bytes: Uint8Array): Uint8Array;
/** SHA-1 of `bytes`: 40 lowercase hex digits. */
export function sha1Hex(bytes: Uint8Array): string;
/**
 * SHA-1 of `bytes` with collision detection (the counter-cryptanalysis of
 * sha1collisiondetection): 20 bytes, or throws Sha1CollisionError when the
 * input carries the marks of a collision attack.
 */
export function sha1Checked(bytes: Uint8Array): Uint8Array;

/** An incremental SHA-1. */
export class Sha1 {
  constructor();
  /** Hashes `bytes` after everything before it; returns this hasher. */
  update(bytes: Uint8Array): this;
  /** SHA-1 of everything so far (20 bytes); the hasher can take more. */
  digest(): Uint8Array;
  /** `digest()` as 40 lowercase hex digits. */
  digestHex(): string;
}
