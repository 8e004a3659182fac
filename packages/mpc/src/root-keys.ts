/**
 * The MPC responder's root keys: one secp256k1 secret (domain 0) and one ed25519 scalar (domain 1).
 *
 * A home directory keeps them in `<home>/mpc_keys.json` (mode 0600), created once, so derived addresses are
 * stable across restarts. They are random, or derived from a seed text (`RootKeys.fromSeed`, what `shadebox
 * --seed` uses: the same seed, the same keys and so the same derived addresses on every run):
 *
 *   secp256k1 secret = sha256("shadebox mpc root key:secp256k1:" + seed + ":" + i), big-endian, for the
 *                      first i = 0, 1, … that gives a value in [1, n−1]
 *   ed25519 scalar   = sha512("shadebox mpc root key:ed25519:" + seed + ":" + i), little-endian, mod ℓ, for
 *                      the first i = 0, 1, … that gives a non-zero scalar
 *
 * (UTF-8 text; i in decimal). Keys from a seed are public to whoever knows the seed: test keys.
 *
 * The file:
 *
 *   { "secp256k1_secret_key": "<hex 32, big-endian>", "secp256k1_public_key": "secp256k1:…",
 *     "ed25519_secret_scalar": "<hex 32, little-endian, < ℓ>", "ed25519_public_key": "ed25519:…" }
 *
 * `RootKeys` never shows its secrets in `toJSON`, `toString` or `util.inspect`.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import {
  bigIntToBytesBE,
  bigIntToBytesLE,
  bytesToBigIntBE,
  bytesToHex,
  DerivationError,
  DOMAIN_ED25519,
  DOMAIN_SECP256K1,
  deriveEd25519SecretScalar,
  deriveSecp256k1SecretKey,
  ED25519_ORDER,
  ed25519PublicKeyOfScalar,
  ed25519PublicKeyToNaj,
  ed25519ScalarValue,
  hexToBytes,
  SECP256K1_ORDER,
  secp256k1PublicKeyOf,
  secp256k1PublicKeyToNaj,
} from './derivation.js';

export const MPC_KEYS_FILE = 'mpc_keys.json';

/** The text every seed-derived root key's hash starts with (domain separation from the dev accounts' keys). */
const SEED_DOMAIN = 'shadebox mpc root key';

/** How new root keys are made: from a seed text, or random (no seed). */
export interface RootKeysOptions {
  /** Derive the keys from this text (`RootKeys.fromSeed`) instead of drawing random ones. */
  seed?: string;
}

export interface RootKeysFile {
  secp256k1_secret_key: string;
  secp256k1_public_key: string;
  ed25519_secret_scalar: string;
  ed25519_public_key: string;
}

export class RootKeys {
  /** `secp256k1:<base58 of x‖y>` */
  readonly secp256k1PublicKey: string;
  /** `ed25519:<base58 of 32 bytes>` */
  readonly ed25519PublicKey: string;
  /** The same public keys grouped by curve (no secrets here). */
  readonly secp256k1: { readonly publicKey: string };
  readonly ed25519: { readonly publicKey: string };
  readonly #secp256k1Secret: Uint8Array;
  readonly #ed25519Scalar: Uint8Array;

  private constructor(secp256k1Secret: Uint8Array, ed25519Scalar: Uint8Array) {
    const sk = bytesToBigIntBE(secp256k1Secret);
    if (secp256k1Secret.length !== 32 || sk === 0n || sk >= SECP256K1_ORDER) {
      throw new DerivationError('secp256k1 root secret out of range');
    }
    if (ed25519Scalar.length !== 32 || ed25519ScalarValue(ed25519Scalar) === 0n) {
      throw new DerivationError('ed25519 root scalar out of range');
    }
    this.#secp256k1Secret = Uint8Array.from(secp256k1Secret);
    this.#ed25519Scalar = Uint8Array.from(ed25519Scalar);
    this.secp256k1PublicKey = secp256k1PublicKeyToNaj(secp256k1PublicKeyOf(secp256k1Secret));
    this.ed25519PublicKey = ed25519PublicKeyToNaj(ed25519PublicKeyOfScalar(ed25519Scalar));
    this.secp256k1 = Object.freeze({ publicKey: this.secp256k1PublicKey });
    this.ed25519 = Object.freeze({ publicKey: this.ed25519PublicKey });
  }

  /** Fresh random root keys (the ed25519 scalar is 64 random bytes reduced mod ℓ). */
  static generate(): RootKeys {
    for (;;) {
      const sk = secp256k1.utils.randomSecretKey();
      const scalar = bytesToBigIntLE64(randomBytes(64)) % ED25519_ORDER;
      if (scalar !== 0n) return new RootKeys(sk, bigIntToBytesLE(scalar));
    }
  }

  /** The root keys of a seed text (the formula is at the top of this file). */
  static fromSeed(seed: string): RootKeys {
    if (typeof seed !== 'string' || seed === '') {
      throw new DerivationError('the root-key seed must not be empty');
    }
    const text = (curve: string, i: number) =>
      new TextEncoder().encode(`${SEED_DOMAIN}:${curve}:${seed}:${i}`);
    let sk = 0n;
    for (let i = 0; sk === 0n || sk >= SECP256K1_ORDER; i++) {
      sk = bytesToBigIntBE(sha256(text('secp256k1', i)));
    }
    let scalar = 0n;
    for (let i = 0; scalar === 0n; i++) {
      scalar = bytesToBigIntLE64(sha512(text('ed25519', i))) % ED25519_ORDER;
    }
    return new RootKeys(bigIntToBytesBE(sk), bigIntToBytesLE(scalar));
  }

  /** From the secrets: a 32-byte big-endian secp256k1 secret and a 32-byte little-endian ed25519 scalar. */
  static fromSecrets(secp256k1Secret: Uint8Array, ed25519Scalar: Uint8Array): RootKeys {
    return new RootKeys(secp256k1Secret, ed25519Scalar);
  }

  /** From the file's JSON; the public keys, when present, must match the secrets. */
  static fromJSONFile(json: unknown): RootKeys {
    if (typeof json !== 'object' || json === null) throw new DerivationError('mpc keys: not an object');
    const f = json as Partial<RootKeysFile>;
    if (typeof f.secp256k1_secret_key !== 'string' || typeof f.ed25519_secret_scalar !== 'string') {
      throw new DerivationError('mpc keys: secp256k1_secret_key and ed25519_secret_scalar are required');
    }
    const keys = new RootKeys(
      hexToBytes(f.secp256k1_secret_key, 32),
      hexToBytes(f.ed25519_secret_scalar, 32),
    );
    if (f.secp256k1_public_key !== undefined && f.secp256k1_public_key !== keys.secp256k1PublicKey) {
      throw new DerivationError('mpc keys: secp256k1_public_key does not match the secret');
    }
    if (f.ed25519_public_key !== undefined && f.ed25519_public_key !== keys.ed25519PublicKey) {
      throw new DerivationError('mpc keys: ed25519_public_key does not match the scalar');
    }
    return keys;
  }

  /** The file content, secrets included. Only for writing the key file. */
  toFileJSON(): RootKeysFile {
    return {
      secp256k1_secret_key: bytesToHex(this.#secp256k1Secret),
      secp256k1_public_key: this.secp256k1PublicKey,
      ed25519_secret_scalar: bytesToHex(this.#ed25519Scalar),
      ed25519_public_key: this.ed25519PublicKey,
    };
  }

  /** A copy of the 32-byte big-endian secp256k1 root secret. */
  secp256k1SecretKey(): Uint8Array {
    return Uint8Array.from(this.#secp256k1Secret);
  }

  /** A copy of the 32-byte little-endian ed25519 root scalar. */
  ed25519SecretScalar(): Uint8Array {
    return Uint8Array.from(this.#ed25519Scalar);
  }

  /** The public keys by domain id: `{secp256k1, ed25519}` as the signer's `init` takes them. */
  publicKeys(): { secp256k1: string; ed25519: string } {
    return { secp256k1: this.secp256k1PublicKey, ed25519: this.ed25519PublicKey };
  }

  /** The root public key (NAJ) of a domain. */
  publicKey(domainId: number): string {
    if (domainId === DOMAIN_SECP256K1) return this.secp256k1PublicKey;
    if (domainId === DOMAIN_ED25519) return this.ed25519PublicKey;
    throw new DerivationError(`unknown domain id ${domainId}`);
  }

  /** The child secret of a tweak: 32 bytes big-endian (domain 0) or the 32-byte little-endian scalar (1). */
  childSecret(domainId: number, tweak: Uint8Array | string): Uint8Array {
    if (domainId === DOMAIN_SECP256K1) return deriveSecp256k1SecretKey(this.#secp256k1Secret, tweak);
    if (domainId === DOMAIN_ED25519) return deriveEd25519SecretScalar(this.#ed25519Scalar, tweak);
    throw new DerivationError(`unknown domain id ${domainId}`);
  }

  toJSON(): { secp256k1_public_key: string; ed25519_public_key: string } {
    return { secp256k1_public_key: this.secp256k1PublicKey, ed25519_public_key: this.ed25519PublicKey };
  }

  toString(): string {
    return `RootKeys(${this.secp256k1PublicKey}, ${this.ed25519PublicKey})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

function bytesToBigIntLE64(bytes: Uint8Array): bigint {
  return BigInt(`0x${bytesToHex(Uint8Array.from(bytes).reverse())}`);
}

/** Root keys kept only in memory (for `--memory` nodes): from `options.seed`, else random. */
export function createRootKeys(options: RootKeysOptions = {}): RootKeys {
  return options.seed === undefined ? RootKeys.generate() : RootKeys.fromSeed(options.seed);
}

/**
 * Loads `<homeDir>/mpc_keys.json`, or creates it (mode 0600) with new keys: from `options.seed`, else random.
 * An existing file is kept whatever the seed (a home keeps its keys). Creation is atomic: the file
 * is written under a temporary name and hard-linked into place, so a concurrent caller either wins or
 * reads the complete winner's file. A key file readable by others is tightened to 0600.
 */
export function loadOrCreateRootKeys(homeDir: string, options: RootKeysOptions = {}): RootKeys {
  const path = join(homeDir, MPC_KEYS_FILE);
  const existing = readKeysFile(path);
  if (existing) return existing;
  const keys = createRootKeys(options);
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(keys.toFileJSON(), null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(tmp, 0o600);
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const other = readKeysFile(path);
    if (other) return other;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
  return keys;
}

function readKeysFile(path: string): RootKeys | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DerivationError(`${path}: not valid JSON`);
  }
  let keys: RootKeys;
  try {
    keys = RootKeys.fromJSONFile(json);
  } catch (err) {
    throw new DerivationError(`${path}: ${(err as Error).message}`);
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return keys;
}
