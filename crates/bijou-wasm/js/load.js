// Picks and instantiates one of the package's two builds: `simd` (Wasm
// SIMD, simd128: SHA-1's message schedule on vectors) where the engine
// validates a SIMD instruction, else `baseline`. In Node the wasm file is
// read from disk (Node's `fetch` takes no `file:` URLs); elsewhere it is
// fetched from beside this file.

// The smallest module that uses SIMD: one function returning
// `v128.const 0`. Engines without simd128 reject it.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type 0: () -> v128
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, // code: no locals, v128.const
  ...new Array(16).fill(0), // its 16 bytes
  0x0b, // end
]);

/** The build `load()` picks here: `"simd"` or `"baseline"`. */
export const defaultFlavor = WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'baseline';

/** Instantiates build `flavor` and returns its wasm-bindgen module. */
export async function load(flavor = defaultFlavor) {
  // Literal specifiers, so that bundlers see both builds.
  let glue;
  if (flavor === 'simd') glue = await import('./simd/bijou_wasm.js');
  else if (flavor === 'baseline') glue = await import('./baseline/bijou_wasm.js');
  else throw new RangeError(`unknown bijou-wasm build "${flavor}": use "simd" or "baseline"`);
  const url = new URL(`./${flavor}/bijou_wasm_bg.wasm`, import.meta.url);
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    glue.initSync({ module: await readFile(url) });
  } else {
    await glue.default({ module_or_path: url });
  }
  return glue;
}
