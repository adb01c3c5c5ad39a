// Both builds of the package bound to its public API, so that the tests
// cover the Wasm SIMD build and its fallback on any engine with SIMD.
import { bind } from '../../pkg/api.js';
import { load } from '../../pkg/load.js';

export const builds = {
  simd: bind(await load('simd')),
  baseline: bind(await load('baseline')),
};
