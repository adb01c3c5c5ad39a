// Instantiates the package's wasm module. In Node the file is read from
// disk (Node's `fetch` takes no `file:` URLs); elsewhere it is fetched
// from beside this file.

import * as glue from './bijou_wasm.js';

/** The wasm-bindgen module, instantiated. */
export async function load() {
  const url = new URL('./bijou_wasm_bg.wasm', import.meta.url);
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    glue.initSync({ module: await readFile(url) });
  } else {
    await glue.default({ module_or_path: url });
  }
  return glue;
}
