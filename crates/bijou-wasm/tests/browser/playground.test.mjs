// The playground page in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core): each part is used, and a screenshot is kept
// in target/wasm/playground.png.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crateDir, launch, serve } from './chromium.mjs';

const screenshot = join(crateDir, '../../target/wasm/playground.png');

test('the playground page encodes, decodes and hashes in Chromium', async () => {
  const server = await serve();
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 1200 } });
    const problems = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error}`));
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    const { port } = server.address();
    await page.goto(`http://127.0.0.1:${port}/www/index.html`);
    await page.waitForSelector('body[data-ready=true]', { timeout: 20_000 });
    assert.equal(await page.textContent('#flavor'), 'simd');

    const cell = (table, label) => page.textContent(`#${table} tr[data-label="${label}"] td:nth-child(2)`);

    // A number in every width, an out-of-range one, and not a number.
    await page.fill('#number', '300');
    assert.equal(await cell('number-out', 'bijou64'), 'F8 34');
    assert.equal(await cell('number-out', 'bijou32'), 'FC 30');
    assert.equal(await cell('number-out', 'bijou128'), 'F0 3C');
    assert.equal(await cell('number-out', 'bijou64s'), 'F9 00 60');
    await page.fill('#number', '-300');
    assert.match(await cell('number-out', 'bijou64'), /^RangeError: /);
    assert.equal(await cell('number-out', 'bijou64s'), 'F9 00 5F');
    assert.equal(await cell('number-out', 'bijou32s'), 'FD 00 5B');
    await page.fill('#number', '340282366920938463463374607431768211455');
    assert.equal(await cell('number-out', 'bijou128'), 'FF' + ' FE'.repeat(15) + ' 0F');
    assert.match(await cell('number-out', 'bijou32'), /^RangeError: /);

    // Hex: values, a truncated value, an overflow.
    await page.fill('#hex', 'F9 00');
    assert.match(await cell('hex-out', 'bijou64'), /^BijouDecodeError: truncated bijou value: 3 bytes needed/);
    await page.fill('#hex', 'FF FF FF FF FF');
    assert.match(await cell('hex-out', 'bijou32'), /^BijouDecodeError: .*overflows.*\(overflow at byte 0\)$/);
    await page.fill('#hex', '01 F8 34 FF FE FE FE FE FE FE FE 07');
    assert.equal(await cell('hex-out', 'bijou64'), '1, 300, 18446744073709551615');

    // A file through the picker, then another dropped on the page.
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    await page.setInputFiles('#file', { name: 'fox.txt', mimeType: 'text/plain', buffer: data });
    await page.waitForSelector('#verdict');
    assert.equal(await cell('sha1-out', 'SHA-1'), createHash('sha1').update(data).digest('hex'));
    assert.equal(await page.textContent('#verdict'), 'no collision attack detected');
    const dropped = Buffer.alloc(100_000, 7);
    await page.evaluate((bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'sevens.bin'));
      document.getElementById('sha1-out').replaceChildren();
      document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true }));
    }, [...dropped]);
    await page.waitForSelector('#verdict');
    assert.equal(await cell('sha1-out', 'SHA-1'), createHash('sha1').update(dropped).digest('hex'));
    assert.match(await cell('sha1-out', 'file'), /^sevens\.bin \(100000 bytes\)$/);
    // A published collision (SHAttered) is called out.
    await page.setInputFiles('#file', join(crateDir, '../../vectors/sha1-collisions/shattered-1.pdf'));
    await page.waitForFunction(() => document.querySelector('#sha1-out tr[data-label=file] td:nth-child(2)')?.textContent.startsWith('shattered-1.pdf'));
    assert.equal(await cell('sha1-out', 'SHA-1'), '38762cf7f55934b34d179ae6a4c80cadccbb7f0a');
    assert.equal(
      await page.textContent('#verdict'),
      'collision attack detected (mitigated digest 16e96b70000dd1e7c85b8368ee197754400e58ec)',
    );

    await mkdir(join(screenshot, '..'), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    server.close();
  }
});
