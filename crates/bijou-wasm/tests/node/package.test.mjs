import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as pkg from '../../pkg/index.js';

const read = (file) => readFileSync(new URL(`../../pkg/${file}`, import.meta.url), 'utf8');

test('pkg/package.json describes an ES module package with types for Node 20', () => {
  const manifest = JSON.parse(read('package.json'));
  const cargo = readFileSync(new URL('../../../../Cargo.toml', import.meta.url), 'utf8');
  assert.equal(manifest.name, 'bijou-wasm');
  assert.equal(manifest.version, cargo.match(/^version = "(.+)"$/m)[1], 'the workspace version');
  assert.equal(manifest.type, 'module');
  assert.deepEqual(manifest.exports, { '.': { types: './index.d.ts', default: './index.js' } });
  assert.equal(manifest.engines.node, '>=20');
  for (const file of ['index.js', 'index.d.ts', 'README.md']) read(file);
  for (const build of ['simd', 'baseline']) {
    for (const file of ['bijou_wasm.js', 'bijou_wasm_bg.wasm']) read(`${build}/${file}`);
  }
});

test('index.d.ts declares exactly what index.js exports', () => {
  const declared = [...read('index.d.ts').matchAll(/^export (?:function|class|const) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual([...new Set(declared)].sort(), Object.keys(pkg).sort());
});
