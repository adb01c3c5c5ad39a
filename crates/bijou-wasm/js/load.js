// Picks and instantiates one of the package's two builds: `simd` (Wasm
// SIMD, simd128) where the engine validates a SIMD instruction, else
// `baseline`.

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

/** Whether this engine runs Wasm SIMD (simd128). */
export const simdSupported = WebAssembly.validate(SIMD_PROBE);

/** The build `load()` picks here: `"simd"` or `"baseline"`. */
export const defaultFlavor = simdSupported ? 'simd' : 'baseline';

/**
 * Instantiates build `flavor` and returns its wasm-bindgen module. In Node
 * the wasm file is read from disk (Node's `fetch` has no `file:` URLs);
 * elsewhere it is fetched next to this file.
 */
export async function load(flavor = defaultFlavor) {
  // Literal specifiers, so bundlers see both builds.
  const glue = flavor === 'simd'
    ? await import('./simd/bijou_wasm.js')
    : flavor === 'baseline'
      ? await import('./baseline/bijou_wasm.js')
      : null;
  if (glue === null) {
    throw new RangeError(`unknown bijou-wasm build "${flavor}": use "simd" or "baseline"`);
  }
  const url = new URL(`./${flavor}/bijou_wasm_bg.wasm`, import.meta.url);
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    glue.initSync({ module: await readFile(url) });
  } else {
    await glue.default({ module_or_path: url });
  }
  return glue;
}
