/**
 * Seeded randomness for tests. The seed is SHADEBOX_TEST_SEED (a decimal number) when set, a fixed default
 * otherwise; each generator mixes it with a label (the file or test it serves), so generators do not depend on
 * the order tests run in. Every generator prints its seed when created, so a failing run can be repeated with
 * `SHADEBOX_TEST_SEED=<seed> npm test -- <file>`.
 */
import { KEY_TYPE_ED25519, KEY_TYPE_SECP256K1, KeyPair, type KeyTypeName } from '@shadebox/primitives';

const DEFAULT_SEED = 20261124;
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The seed of this run: SHADEBOX_TEST_SEED, or the fixed default. */
export function testSeed(): number {
  const text = process.env.SHADEBOX_TEST_SEED;
  if (text === undefined || text === '') return DEFAULT_SEED;
  if (!/^\d+$/.test(text)) throw new Error(`SHADEBOX_TEST_SEED must be a decimal number, got '${text}'`);
  return Number(BigInt(text) % 2n ** 32n);
}

export interface TestRandom {
  readonly seed: number;
  /** A number in [0, 1). */
  next(): number;
  /** A whole number in [0, max). */
  int(max: number): number;
  /** As node:crypto's `randomInt`: a whole number in [0, a), or in [a, b) when b is given. */
  randomInt(a: number, b?: number): number;
  /** Seeded bytes (a Buffer, as node:crypto's `randomBytes` gives). */
  bytes(length: number): Buffer;
  /** A valid secp256k1 secret scalar (32 bytes, big-endian, in [1, n-1]). */
  secp256k1SecretKey(): Uint8Array;
  /** A key pair of the type (default ed25519), from seeded secret bytes. */
  keyPair(type?: KeyTypeName): KeyPair;
}

/** Something that can print a diagnostic line: a test context (`t`), or nothing for stdout. */
type Reporter = { diagnostic(message: string): void } | undefined;

/** A generator seeded by the run's seed and `label`; prints the seed through `t.diagnostic` or stdout. */
export function testRandom(label: string, t?: Reporter): TestRandom {
  const seed = testSeed();
  const message = `seed ${seed} (${label}; SHADEBOX_TEST_SEED=${seed} repeats it)`;
  if (t) t.diagnostic(message);
  else process.stdout.write(`${message}\n`);
  const next = mulberry32((seed ^ fnv1a(label)) >>> 0);
  const bytes = (length: number) => {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = Math.floor(next() * 256);
    return out;
  };
  const secp256k1SecretKey = () => {
    for (;;) {
      const candidate = bytes(32);
      const n = BigInt(`0x${Buffer.from(candidate).toString('hex')}`);
      if (n > 0n && n < SECP256K1_ORDER) return candidate;
    }
  };
  return {
    seed,
    next,
    int: (max) => Math.floor(next() * max),
    randomInt: (a, b) => (b === undefined ? Math.floor(next() * a) : a + Math.floor(next() * (b - a))),
    bytes,
    secp256k1SecretKey,
    keyPair: (type = 'ed25519') =>
      type === 'secp256k1'
        ? KeyPair.fromSecretBytes(KEY_TYPE_SECP256K1, secp256k1SecretKey())
        : KeyPair.fromSecretBytes(KEY_TYPE_ED25519, bytes(32)),
  };
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for test data; not for anything that needs real randomness. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
