#!/usr/bin/env python3
"""Check the bijou vector files against an independent transcription of the format.

The vectors in `vectors/bijou/` are what bijou-core and its Rust oracle
(`testkit`) are tested against, so they must not come from either. This
script is the second opinion: the format's rules (upstream bijou SPEC.md,
as docs/SPEC.md restates them) written out directly in Python, with
Python's unbounded integers, sharing no code with the Rust crates. It is how
`signed.txt` and `boundaries.txt` were checked when they were written, and
CI runs it on every file so an edited vector cannot drift from the rules.

For every line `WIDTH VALUE ENCODING` it checks that:

- a value lies in its type's range, encodes to exactly ENCODING, and
  ENCODING decodes to it, consuming every byte;
- an `error:truncated` / `error:overflow` line's bytes fail to decode with
  that error.

Usage: python3 scripts/check_bijou_vectors.py vectors/bijou/*.txt
Exits 1 and names each line that disagrees; prints a count when all agree.
"""

import sys

BITS = {"bijou32": 32, "bijou64": 64, "bijou128": 128}


def tiers(bits):
    """The threshold H and OFFSET[0..=T] of the format facts' rules."""
    top_tier = bits // 8
    threshold = 256 - top_tier
    offsets = [0, threshold]
    for n in range(2, top_tier + 1):
        offsets.append(offsets[-1] + 256 ** (n - 1))
    return threshold, offsets


def decode(bits, data):
    """(value, length) for the front of `data`, or the error's name."""
    threshold, offsets = tiers(bits)
    if not data:
        return "truncated"
    tag = data[0]
    if tag < threshold:
        return tag, 1
    tier = tag - (threshold - 1)
    if len(data) < 1 + tier:
        return "truncated"
    value = offsets[tier] + int.from_bytes(data[1 : 1 + tier], "big")
    if value >= 2**bits:
        return "overflow"
    return value, 1 + tier


def encode(bits, value):
    """The one encoding of `value`: the tier whose range holds it."""
    threshold, offsets = tiers(bits)
    if value < threshold:
        return bytes([value])
    tier = max(t for t in range(1, len(offsets)) if offsets[t] <= value)
    return bytes([threshold - 1 + tier]) + (value - offsets[tier]).to_bytes(tier, "big")


def zigzag(value, bits):
    """(n << 1) ^ (n >> (W - 1)), as a W-bit unsigned integer."""
    return ((value << 1) ^ (value >> (bits - 1))) % 2**bits


def check_line(width, expected, hex_bytes):
    """None when the vector agrees with the rules, else what went wrong."""
    signed = width.endswith("s")
    if width.rstrip("s") not in BITS:
        return f"unknown width {width!r}"
    bits = BITS[width.rstrip("s")]
    try:
        data = bytes.fromhex("" if hex_bytes == "-" else hex_bytes)
    except ValueError:
        return f"{hex_bytes!r} is not hex"
    decoded = decode(bits, data)
    if expected.startswith("error:"):
        want = expected[len("error:") :]
        return None if decoded == want else f"expected {want}, rules give {decoded}"
    try:
        value = int(expected)
    except ValueError:
        return f"{expected!r} is neither a decimal value nor error:truncated/overflow"
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1)) if signed else (0, 2**bits)
    if not low <= value < high:
        return f"{value} is outside {width}'s range"
    unsigned = zigzag(value, bits) if signed else value
    if encode(bits, unsigned) != data:
        return f"rules encode it as {encode(bits, unsigned).hex().upper()}"
    if decoded != (unsigned, len(data)):
        return f"rules decode the bytes as {decoded}"
    return None


def main(paths):
    if not paths:
        sys.exit(__doc__.strip().splitlines()[-2])
    checked = failed = 0
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                fields = line.split("#", 1)[0].split()
                if not fields:
                    continue
                checked += 1
                problem = (
                    check_line(*fields)
                    if len(fields) == 3
                    else f"expected 3 fields, found {len(fields)}"
                )
                if problem:
                    failed += 1
                    print(f"{path}:{number}: {line.strip()}: {problem}")
    if not checked:
        sys.exit(f"no bijou vectors in {', '.join(paths)}")
    if failed:
        sys.exit(f"{failed} of {checked} bijou vectors disagree with the rules")
    print(f"{checked} bijou vectors in {len(paths)} files agree with the rules")


if __name__ == "__main__":
    main(sys.argv[1:])
