// The package's error classes, shared by both builds so `instanceof`
// works whichever one loaded.

/**
 * A bijou decode failed: `kind` is `"truncated"` (the input ended before
 * the value did) or `"overflow"` (a top-tier value too large for the width),
 * `offset` the byte offset of the value that failed.
 */
export class BijouDecodeError extends Error {
  constructor(message, kind, offset) {
    super(message);
    this.kind = kind;
    this.offset = offset;
  }
}
BijouDecodeError.prototype.name = 'BijouDecodeError';

/**
 * `sha1Checked` found the marks of a SHA-1 collision attack in its input.
 * `digest` is the plain SHA-1 (hex), `mitigated` the digest collision
 * detection substitutes for it (hex).
 */
export class Sha1CollisionError extends Error {
  constructor(message, digest, mitigated) {
    super(message);
    this.digest = digest;
    this.mitigated = mitigated;
  }
}
Sha1CollisionError.prototype.name = 'Sha1CollisionError';
