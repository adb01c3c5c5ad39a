// A deterministic xorshift generator: failures reproduce.
export function rng(seed) {
  let s = BigInt(seed) | 1n;
  const next = () => {
    s ^= (s << 13n) & 0xffffffffffffffffn;
    s ^= s >> 7n;
    s ^= (s << 17n) & 0xffffffffffffffffn;
    return s;
  };
  return {
    bits: (n) => {
      let out = 0n;
      for (let got = 0; got < n; got += 64) out = (out << 64n) | next();
      return BigInt.asUintN(n, out);
    },
    int: (n) => Number(next() % BigInt(n)),
    bytes: (n) => Uint8Array.from({ length: n }, () => Number(next() & 0xffn)),
  };
}
