// The SHA-1 bench in headless Chromium (`browser.html`), printed as the
// Node bench prints its own. ROUNDS=N sets the rounds (default 31),
// SIZES=A,B the input sizes in bytes (default 1 KiB, 64 KiB, 1 MiB).
import { cpus } from 'node:os';
import { launch, serve } from '../tests/browser/chromium.mjs';

const rounds = Number(process.env.ROUNDS ?? 31);
const server = await serve(['hash-wasm']);
const browser = await launch();
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`http://127.0.0.1:${server.address().port}/bench/browser.html?rounds=${rounds}${process.env.SIZES ? `&sizes=${process.env.SIZES}` : ''}`);
  await page.waitForSelector('body[data-done]', { timeout: 0 });
  const text = await page.textContent('#out');
  console.log(`\nbijou-wasm bench in Chromium ${browser.version()}, ${cpus()[0].model}: ${text}`);
  if ((await page.getAttribute('body', 'data-done')) !== 'true') process.exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
