/**
 * A key pair that signs as nearcore's `SecretKey::sign` does.
 *
 * String form (nearcore key files, near-api-js key stores): `ed25519:<base58 of seed ‖ public key>` (64 bytes),
 * `secp256k1:<base58 of the 32-byte secret>` and `ml-dsa-65:<base58 of the 4032-byte FIPS 204 secret key>`. `fromString` also takes a bare 32-byte ed25519 seed and
 * near-api-js's 96-byte `secp256k1` form (secret ‖ public key); a public half that does not match the secret
 * is rejected. The secret never appears in errors, `toJSON` or `util.inspect`.
 */
import {
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign as nodeSign,
  randomBytes,
} from 'node:crypto';
import { inspect } from 'node:util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58Decode, base58Encode } from './encoding.js';
import { InvalidSecretKeyError } from './errors.js';
import { type KeyTypeName, keyTypeName, parseKeyTypeName, publicKeyToString } from './keys.js';
import {
  KEY_TYPE_ED25519,
  KEY_TYPE_ML_DSA_65,
  KEY_TYPE_SECP256K1,
  type KeyType,
  type PublicKey,
  type Signature,
} from './types.js';
import {
  ML_DSA_65_SECRET_KEY_LENGTH,
  mlDsa65KeysFromSeed,
  mlDsa65PublicKeyOf,
  signMlDsa65,
} from './verify-ml-dsa-65.js';
import { verifySignature } from './verify-signature.js';

const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

export class KeyPair {
  readonly publicKey: PublicKey;
  readonly #secret: Uint8Array;
  readonly #edKey: KeyObject | undefined;

  private constructor(publicKey: PublicKey, secret: Uint8Array, edKey: KeyObject | undefined) {
    this.publicKey = publicKey;
    this.#secret = secret;
    this.#edKey = edKey;
  }

  get keyType(): KeyType {
    return this.publicKey.keyType;
  }

  static fromRandom(keyType: KeyTypeName = 'ed25519'): KeyPair {
    const type = parseKeyTypeName(keyType);
    if (type === KEY_TYPE_ED25519) return KeyPair.fromSecretBytes(KEY_TYPE_ED25519, randomBytes(32));
    if (type === KEY_TYPE_SECP256K1)
      return KeyPair.fromSecretBytes(KEY_TYPE_SECP256K1, secp256k1.utils.randomSecretKey());
    if (type === KEY_TYPE_ML_DSA_65) return KeyPair.fromMlDsa65Seed(randomBytes(32));
    throw new InvalidSecretKeyError(`unknown key type ${JSON.stringify(String(keyType).slice(0, 20))}`);
  }

  /** An ML-DSA-65 key from a 32-byte seed (FIPS 204 key generation, as aws-lc's `from_seed`). */
  static fromMlDsa65Seed(seed: Uint8Array): KeyPair {
    if (!(seed instanceof Uint8Array) || seed.length !== 32) {
      throw new InvalidSecretKeyError(`expected a 32-byte ML-DSA-65 seed, got ${seed?.length}`);
    }
    const { secretKey, publicKey } = mlDsa65KeysFromSeed(seed);
    return new KeyPair({ keyType: KEY_TYPE_ML_DSA_65, data: publicKey }, secretKey, undefined);
  }

  /** An ML-DSA-65 key from its 4032-byte expanded secret key; the public key is derived from it. */
  static fromMlDsa65SecretKey(secret: Uint8Array): KeyPair {
    if (!(secret instanceof Uint8Array) || secret.length !== ML_DSA_65_SECRET_KEY_LENGTH) {
      throw new InvalidSecretKeyError(
        `ml-dsa-65 secret key must be ${ML_DSA_65_SECRET_KEY_LENGTH} bytes, got ${secret?.length}`,
      );
    }
    const copy = Uint8Array.from(secret);
    let data: Uint8Array;
    try {
      data = mlDsa65PublicKeyOf(copy);
    } catch {
      throw new InvalidSecretKeyError('malformed ml-dsa-65 secret key');
    }
    return new KeyPair({ keyType: KEY_TYPE_ML_DSA_65, data }, copy, undefined);
  }

  /** An ed25519 key from its 32-byte seed, or a secp256k1 key from its 32-byte secret scalar. */
  static fromSecretBytes(keyType: KeyType, secret: Uint8Array): KeyPair {
    if (!(secret instanceof Uint8Array) || secret.length !== 32) {
      throw new InvalidSecretKeyError(`expected 32 secret bytes, got ${secret?.length}`);
    }
    const copy = Uint8Array.from(secret);
    if (keyType === KEY_TYPE_ED25519) {
      const edKey = createPrivateKey({
        key: Buffer.concat([PKCS8_ED25519_PREFIX, copy]),
        format: 'der',
        type: 'pkcs8',
      });
      const jwk = createPublicKey(edKey).export({ format: 'jwk' });
      const data = new Uint8Array(Buffer.from(String(jwk.x), 'base64url'));
      return new KeyPair({ keyType: KEY_TYPE_ED25519, data }, copy, edKey);
    }
    if (keyType === KEY_TYPE_SECP256K1) {
      if (!secp256k1.utils.isValidSecretKey(copy))
        throw new InvalidSecretKeyError('secp256k1 secret out of range');
      const data = secp256k1.getPublicKey(copy, false).subarray(1);
      return new KeyPair({ keyType: KEY_TYPE_SECP256K1, data }, copy, undefined);
    }
    throw new InvalidSecretKeyError(`unknown key type ${String(keyType)}`);
  }

  static fromString(text: string): KeyPair {
    if (typeof text !== 'string') throw new InvalidSecretKeyError('not a string');
    const colon = text.indexOf(':');
    const keyType = colon < 0 ? KEY_TYPE_ED25519 : parseKeyTypeName(text.slice(0, colon));
    if (keyType === null) throw new InvalidSecretKeyError('unknown key type prefix');
    let bytes: Uint8Array;
    try {
      bytes = base58Decode(text.slice(colon + 1));
    } catch {
      throw new InvalidSecretKeyError('key data is not base58');
    }
    if (keyType === KEY_TYPE_ML_DSA_65) return KeyPair.fromMlDsa65SecretKey(bytes);
    const publicLength = keyType === KEY_TYPE_ED25519 ? 32 : 64;
    if (bytes.length !== 32 && bytes.length !== 32 + publicLength) {
      throw new InvalidSecretKeyError(
        `${keyTypeName(keyType)} secret key must be 32 or ${32 + publicLength} bytes, got ${bytes.length}`,
      );
    }
    const pair = KeyPair.fromSecretBytes(keyType, bytes.subarray(0, 32));
    if (bytes.length > 32 && Buffer.compare(bytes.subarray(32), pair.publicKey.data) !== 0) {
      throw new InvalidSecretKeyError('the public half does not match the secret');
    }
    return pair;
  }

  /** The secret key string: `ed25519:<base58 seed ‖ public>`, `secp256k1:<base58 secret>` or
   * `ml-dsa-65:<base58 secret key>`. */
  toString(): string {
    const data =
      this.keyType === KEY_TYPE_ED25519 ? Buffer.concat([this.#secret, this.publicKey.data]) : this.#secret;
    return `${keyTypeName(this.keyType)}:${base58Encode(data)}`;
  }

  get publicKeyString(): string {
    return publicKeyToString(this.publicKey);
  }

  /**
   * ed25519 and ML-DSA-65 (hedged, like nearcore) sign any message. secp256k1 signs a 32-byte message as is (RFC 6979 nonce, low-S), giving
   * r ‖ s ‖ recovery id like libsecp256k1's `sign_ecdsa_recoverable`.
   */
  sign(message: Uint8Array): Signature {
    if (this.#edKey !== undefined) {
      const sig = nodeSign(null, message, this.#edKey);
      return { keyType: KEY_TYPE_ED25519, data: new Uint8Array(sig) };
    }
    if (this.keyType === KEY_TYPE_ML_DSA_65)
      return { keyType: KEY_TYPE_ML_DSA_65, data: signMlDsa65(message, this.#secret) };
    if (message.length !== 32)
      throw new RangeError(`secp256k1 signs 32-byte messages, got ${message.length}`);
    const recovered = secp256k1.sign(message, this.#secret, {
      prehash: false,
      lowS: true,
      format: 'recovered',
    });
    const data = new Uint8Array(65);
    data.set(recovered.subarray(1), 0);
    data[64] = recovered[0];
    return { keyType: KEY_TYPE_SECP256K1, data };
  }

  verify(message: Uint8Array, signature: Signature): boolean {
    return verifySignature(message, signature, this.publicKey);
  }

  toJSON(): { publicKey: string } {
    return { publicKey: this.publicKeyString };
  }

  [inspect.custom](): string {
    return `KeyPair { publicKey: '${this.publicKeyString}' }`;
  }
}
