// The benches' timing, shared by the Node bench and the Chromium page:
// candidates run interleaved, round after round (in reverse order every
// other round), so machine noise hits them alike. Each time is the median
// over the rounds; each ratio is the median over the rounds of the peer's
// time over ours in the same round, which bursts of load on a shared
// machine move less than a ratio of medians.

const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];

/** Ms per call of each candidate in each of `rounds` interleaved rounds. */
export function race(candidates, rounds) {
  const times = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  const entries = Object.entries(candidates);
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of round % 2 ? [...entries].reverse() : entries) {
      let calls = 0;
      const start = performance.now();
      let elapsed = 0;
      do {
        run();
        calls++;
        elapsed = performance.now() - start;
      } while (elapsed < 25);
      times[name].push(elapsed / calls);
    }
  }
  return times;
}

/** The lines reporting a race's `times`, each peer's ratio to `ours`. */
export function report(title, times, ours, unit) {
  const lines = ['', title];
  for (const [name, list] of Object.entries(times)) {
    const ms = median(list);
    const ratio = name === ours ? '' : `  ${median(list.map((t, i) => t / times[ours][i])).toFixed(2)}x ours`;
    lines.push(`  ${name.padEnd(40)} ${ms.toFixed(3).padStart(9)} ms  ${unit(ms).padStart(12)}${ratio}`);
  }
  return lines.join('\n');
}

/** The SHA-1 input sizes: 1 KiB, 64 KiB, 1 MiB. */
export const SHA1_SIZES = [1 << 10, 1 << 16, 1 << 20];

/** The deterministic SHA-1 input of `size` bytes. */
export const sha1Input = (size) => Uint8Array.from({ length: size }, (_, i) => (i * 131 + (i >> 9)) & 0xff);

/** A size in words: "1 KiB", "64 KiB", "1 MiB". */
export const sizeName = (size) => (size >= 1 << 20 ? `${size >> 20} MiB` : `${size >> 10} KiB`);

/** A throughput unit for `report` on inputs of `size` bytes. */
export const mibPerSecond = (size) => (ms) => `${(size / 2 ** 20 / ms * 1000).toFixed(0)} MiB/s`;
