// The package's TypeScript types, checked by `tsc -p tests/types` (no
// output): the documented uses compile, and the misuses the JS API throws
// TypeError for are type errors (each `@ts-expect-error` fails the check
// if its line compiles).
import {
  BijouDecodeError, Sha1, Sha1CollisionError, decode128s, decode32, decode64, decodeAll128,
  decodeAll32s, decodeAll64, encode128, encode32, encode64, encode64s, encodeAll128s, encodeAll32,
  encodeAll64, encodedLen128, sha1, sha1Checked, sha1Hex,
} from '../../pkg/index.js';

const bytes: Uint8Array = encode64(300n);
const one: { value: bigint; bytesRead: number } = decode64(bytes, 0);
const small: number = decode32(encode32(7)).value;
const signed: bigint = decode128s(bytes).value;
const all: BigUint64Array = decodeAll64(encodeAll64(new BigUint64Array([1n])));
const allSigned: Int32Array = decodeAll32s(bytes);
const wide: bigint[] = decodeAll128(encode128(2n ** 100n));
const packed: Uint8Array = encodeAll32([1, 2, 3]) && encodeAll32(new Uint32Array(2)) && encodeAll128s(new Set([-1n]));
const length: number = encodedLen128(1n);
const digest: Uint8Array = sha1(bytes);
const hex: string = sha1Hex(bytes) + new Sha1().update(bytes).update(bytes).digestHex();
const checked: Uint8Array = sha1Checked(bytes);
encode64s(-1n);

try {
  decodeAll64(bytes);
} catch (error) {
  if (error instanceof BijouDecodeError) {
    const kind: 'truncated' | 'overflow' = error.kind;
    const offset: number = error.offset;
    console.log(kind, offset, error.message);
  } else if (error instanceof Sha1CollisionError) {
    const both: string = error.digest + error.mitigated;
    console.log(both);
  }
}

// @ts-expect-error: 64-bit values are bigints
encode64(300);
// @ts-expect-error: 32-bit values are numbers
encode32(300n);
// @ts-expect-error: bytes are a Uint8Array
decode64([0xf8, 0x34]);
// @ts-expect-error: bytes are a Uint8Array, not text
sha1('abc');
// @ts-expect-error: decodeAll64 gives bigints
const wrong: Float64Array = decodeAll64(bytes);

console.log(one, small, signed, all, allSigned, wide, packed, length, digest, hex, checked, wrong);
