// Headless Chromium (Debian's /usr/bin/chromium, or $CHROMIUM, driven by
// playwright-core) and a local server of the crate directory, for the
// playground test and the browser bench.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** The crate directory: the page in www/, the package in pkg/. */
export const crateDir = fileURLToPath(new URL('../../', import.meta.url));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

/**
 * Serves the crate directory on a free local port; of node_modules, only
 * the files under the `modules` listed (the bench's peers).
 */
export function serve(modules = []) {
  const server = createServer(async (request, response) => {
    const path = normalize(join(crateDir, decodeURIComponent(new URL(request.url, 'http://x').pathname)));
    const inModules = path.split(sep).includes('node_modules');
    const allowed = modules.some((module) => path.startsWith(join(crateDir, 'node_modules', module) + sep));
    if (!path.startsWith(crateDir) || (inModules && !allowed)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(path);
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Headless Chromium, quiet: no sandbox, GPU, sync or update traffic. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
