import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { decodeBorsh, encodeBorsh } from './borsh.js';
import { base58Encode } from './encoding.js';
import { InvalidPublicKeyError, InvalidSecretKeyError } from './errors.js';
import {
  decodePublicKey,
  decodeSignature,
  encodePublicKey,
  encodeSignature,
  readPublicKey,
} from './key-borsh.js';
import { KeyPair } from './key-pair.js';
import { parsePublicKey, parseSignature, publicKeyToString, signatureToString } from './keys.js';
import {
  decodePublicKeyHandle,
  encodePublicKeyHandle,
  mlDsa65PublicKeyHash,
  parsePublicKeyHandle,
  publicKeyHandle,
  publicKeyHandleToString,
  publicKeyTrieIdLength,
} from './public-key-handle.js';
import { KEY_TYPE_ML_DSA_65 } from './types.js';
import { verifySignature } from './verify-signature.js';

const SEED = new Uint8Array(32).map((_, i) => i);
const pair = KeyPair.fromMlDsa65Seed(SEED);
const message = createHash('sha256').update('a transaction').digest();

describe('ML-DSA-65 keys and signatures (nearcore key type 2)', () => {
  it('has FIPS 204 sizes and nearcore borsh: tag 2, then 1952 key bytes / 3309 signature bytes', () => {
    assert.equal(pair.keyType, KEY_TYPE_ML_DSA_65);
    assert.equal(pair.publicKey.data.length, 1952);
    const pk = encodePublicKey(pair.publicKey);
    assert.equal(pk.length, 1953);
    assert.equal(pk[0], 2);
    assert.deepEqual(decodePublicKey(pk), pair.publicKey);
    const sig = pair.sign(message);
    assert.equal(sig.data.length, 3309);
    const sb = encodeSignature(sig);
    assert.equal(sb.length, 3310);
    assert.equal(sb[0], 2);
    assert.deepEqual(decodeSignature(sb), sig);
  });

  it('refuses borsh tag 3 as a PublicKey (it is the handle of a stored ML-DSA-65 key)', () => {
    const bytes = new Uint8Array(33);
    bytes[0] = 3;
    assert.throws(() => decodeBorsh(bytes, readPublicKey), /PublicKey key type variant 3/);
  });

  it('uses the string prefix ml-dsa-65 (any case) for keys, signatures and secret keys', () => {
    const text = publicKeyToString(pair.publicKey);
    assert.ok(text.startsWith('ml-dsa-65:'));
    assert.deepEqual(parsePublicKey(text), pair.publicKey);
    assert.deepEqual(parsePublicKey(text.replace('ml-dsa-65', 'ML-DSA-65')), pair.publicKey);
    const sig = pair.sign(message);
    assert.deepEqual(parseSignature(signatureToString(sig)), sig);
    const secret = pair.toString();
    assert.ok(secret.startsWith('ml-dsa-65:'));
    const back = KeyPair.fromString(secret);
    assert.deepEqual(back.publicKey, pair.publicKey);
    assert.throws(
      () => parsePublicKey(`ml-dsa-65:${base58Encode(new Uint8Array(32))}`),
      InvalidPublicKeyError,
    );
    assert.throws(
      () => KeyPair.fromString(`ml-dsa-65:${base58Encode(new Uint8Array(32))}`),
      InvalidSecretKeyError,
    );
  });

  it('derives the same key from the same seed and different keys from different seeds', () => {
    assert.deepEqual(KeyPair.fromMlDsa65Seed(SEED).publicKey, pair.publicKey);
    const other = KeyPair.fromMlDsa65Seed(new Uint8Array(32).fill(9));
    assert.notDeepEqual(other.publicKey.data, pair.publicKey.data);
    assert.equal(KeyPair.fromRandom('ml-dsa-65').publicKey.data.length, 1952);
  });

  it('signs hedged (two signatures differ) and verifies both; rejects a changed message, key or signature', () => {
    const a = pair.sign(message);
    const b = pair.sign(message);
    assert.notDeepEqual(a.data, b.data);
    assert.ok(verifySignature(message, a, pair.publicKey));
    assert.ok(verifySignature(message, b, pair.publicKey));
    const changed = Uint8Array.from(message);
    changed[0] ^= 1;
    assert.ok(!verifySignature(changed, a, pair.publicKey));
    const other = KeyPair.fromMlDsa65Seed(new Uint8Array(32).fill(1));
    assert.ok(!verifySignature(message, a, other.publicKey));
    const bad = Uint8Array.from(a.data);
    bad[100] ^= 0x10;
    assert.ok(!verifySignature(message, { keyType: KEY_TYPE_ML_DSA_65, data: bad }, pair.publicKey));
    // A signature of another scheme never verifies against an ML-DSA-65 key.
    const ed = KeyPair.fromRandom('ed25519').sign(message);
    assert.ok(!verifySignature(message, ed, pair.publicKey));
  });

  it('names a stored key by SHA3-256(domain tag ‖ key) under tag 3, shown as ml-dsa-65-hash:', () => {
    const expected = createHash('sha3-256')
      .update('near:ml-dsa-65-pubkey-hash:v1')
      .update(pair.publicKey.data)
      .digest();
    assert.deepEqual(Buffer.from(mlDsa65PublicKeyHash(pair.publicKey.data)), expected);
    const handle = publicKeyHandle(pair.publicKey);
    const bytes = encodePublicKeyHandle(handle);
    assert.equal(bytes.length, 33);
    assert.equal(bytes[0], 3);
    assert.equal(publicKeyTrieIdLength(pair.publicKey), 33);
    assert.deepEqual(decodePublicKeyHandle(bytes), handle);
    const text = publicKeyHandleToString(handle);
    assert.equal(text, `ml-dsa-65-hash:${base58Encode(expected)}`);
    assert.deepEqual(parsePublicKeyHandle(text), handle);
    assert.throws(() => parsePublicKeyHandle(publicKeyToString(pair.publicKey)), /ml-dsa-65-hash/);
    assert.throws(() => decodePublicKeyHandle(encodePublicKey(pair.publicKey)), /tag 2/);
  });

  it('keeps classical keys byte-identical in their handle form', () => {
    const ed = KeyPair.fromRandom('ed25519').publicKey;
    const handle = publicKeyHandle(ed);
    assert.deepEqual(encodePublicKeyHandle(handle), encodePublicKey(ed));
    assert.equal(publicKeyTrieIdLength(ed), 33);
    assert.equal(publicKeyHandleToString(handle), publicKeyToString(ed));
    const secp = KeyPair.fromRandom('secp256k1').publicKey;
    assert.equal(publicKeyTrieIdLength(secp), 65);
    assert.deepEqual(
      encodeBorsh((w) => w.fixedBytes(encodePublicKeyHandle(publicKeyHandle(secp)), 65)),
      encodePublicKey(secp),
    );
  });
});
