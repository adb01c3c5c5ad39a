// bijou-wasm: bijou varints and SHA-1 for JavaScript, compiled from Rust.
// The Wasm SIMD build is instantiated at import where the engine has
// simd128, else the baseline build (top-level await: Node >= 20, current
// browsers).

import { bind } from './api.js';
import { defaultFlavor, load } from './load.js';

export { BijouDecodeError, Sha1CollisionError } from './errors.js';

/** The build in use: `"simd"` (Wasm SIMD) or `"baseline"`. */
export const flavor = defaultFlavor;

export const {
  encode32, encodedLen32, encodeAll32, decode32, decodeAll32,
  encode32s, encodedLen32s, encodeAll32s, decode32s, decodeAll32s,
  encode64, encodedLen64, encodeAll64, decode64, decodeAll64,
  encode64s, encodedLen64s, encodeAll64s, decode64s, decodeAll64s,
  encode128, encodedLen128, encodeAll128, decode128, decodeAll128,
  encode128s, encodedLen128s, encodeAll128s, decode128s, decodeAll128s,
  sha1, sha1Hex, sha1Checked, Sha1,
} = bind(await load(flavor));
