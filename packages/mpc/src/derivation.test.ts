import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { testRandom } from '../../../test/test-random.js';
import {
  bitcoinP2wpkhAddress,
  evmAddress,
  nearImplicitAccountId,
  solanaAddress,
  toChecksumAddress,
} from './addresses.js';
import {
  bigIntToBytesBE,
  bytesToHex,
  compressSecp256k1PublicKey,
  DerivationError,
  deriveChildPublicKeyNaj,
  derivedPublicKey,
  deriveEd25519PublicKey,
  deriveEd25519SecretScalar,
  deriveSecp256k1PublicKey,
  deriveSecp256k1SecretKey,
  deriveTweak,
  ED25519_ORDER,
  ed25519PublicKeyOfScalar,
  ed25519PublicKeyToNaj,
  hexToBytes,
  najToEd25519PublicKey,
  najToSecp256k1PublicKey,
  parseNajPublicKey,
  SECP256K1_ORDER,
  secp256k1PublicKeyBytes,
  secp256k1PublicKeyOf,
  secp256k1PublicKeyToNaj,
} from './derivation.js';

const rng = testRandom('packages/mpc/src/derivation.test.ts');

// The reference's [verified] vectors (chainsig.js ROOT_PUBLIC_KEYS, the live testnet contract).
const TESTNET = {
  secp256k1:
    'secp256k1:4NfTiv3UsGahebgTaHyD9vF8KYKMBnfd6kh94mK6xv8fGBiJB8TBtFMP5WWXz6B89Ac1fbpzPwAvoyQebemHFwx3',
  ed25519: 'ed25519:6vSEtQxrQj6txUMh33WC4ERyCWmNMRTdufDWAaDY3Un2',
};
const MAINNET = {
  secp256k1:
    'secp256k1:3tFRbMqmoa6AAALMrEFAYCEoHcqKxeW38YptwowBVBtXK1vo36HDbUWuR6EZmoK4JcH6HDkNMGGqP1ouV7VZUWya',
  ed25519: 'ed25519:G9hwngxWNKdmqMCmU1Yt6LPhFpayJeKFxyAV1HqMNLtF',
};

describe('tweak', () => {
  test('the near/mpc snapshot vector', () => {
    assert.equal(
      bytesToHex(deriveTweak('dwefqwg', 'frwewegwegweg')),
      'ad2d6fc1f445a1b43830415e7e6e3d03cd077673047848a085f130c24f53ee00',
    );
  });

  test('derivation-test.testnet / unit-test', () => {
    assert.equal(
      bytesToHex(deriveTweak('derivation-test.testnet', 'unit-test')),
      '7a4d7e6dcdef70e890bc9531c1118224d3efcdfe19491d1ac7b2a8ffaccc42c0',
    );
  });

  test('an empty path keeps the comma', () => {
    const expected = sha3_256(
      new TextEncoder().encode('near-mpc-recovery v0.1.0 epsilon derivation:a.near,'),
    );
    assert.deepEqual(deriveTweak('a.near', ''), expected);
    assert.notDeepEqual(deriveTweak('a.near', ''), deriveTweak('a.near', ','));
  });
});

describe('testnet vectors (derivation-test.testnet, unit-test)', () => {
  const tweak = deriveTweak('derivation-test.testnet', 'unit-test');

  test('secp256k1 derived key, compressed form and addresses', () => {
    const derived = deriveSecp256k1PublicKey(TESTNET.secp256k1, tweak);
    assert.equal(
      secp256k1PublicKeyToNaj(derived),
      'secp256k1:3b3GS4kaAPvzxFUEYKiMvXeuBzttMZosggT3iAAbyZzAfQc1Dn4eLrDshNGGeKZyfSK7xegjPSq553NXHisMLiyA',
    );
    assert.equal(
      bytesToHex(compressSecp256k1PublicKey(derived)),
      '03816353e4086e2619542c0212e17dc509a0dc9f11e0979371a3413be4e87c9627',
    );
    assert.equal(evmAddress(derived), '0x0513cb2E7ED8B3c9A2ac54CDcaCa32520b0B7311');
    assert.equal(bitcoinP2wpkhAddress(derived, 'testnet'), 'tb1qhv3ve430qaw392kmweqa6j98dqrw0l7efs5kg7');
    assert.equal(bitcoinP2wpkhAddress(derived, 'tb'), 'tb1qhv3ve430qaw392kmweqa6j98dqrw0l7efs5kg7');
    assert.equal(bitcoinP2wpkhAddress(derived), 'bc1qhv3ve430qaw392kmweqa6j98dqrw0l7erk09nd');
    assert.equal(bitcoinP2wpkhAddress(derived, 'mainnet'), 'bc1qhv3ve430qaw392kmweqa6j98dqrw0l7erk09nd');
  });

  test('the same from the root given as raw bytes (64, 65 and 33), and through the NAJ helpers', () => {
    const root64 = najToSecp256k1PublicKey(TESTNET.secp256k1);
    assert.equal(root64.length, 64);
    const expected = deriveSecp256k1PublicKey(TESTNET.secp256k1, tweak);
    assert.deepEqual(deriveSecp256k1PublicKey(root64, tweak), expected);
    assert.deepEqual(deriveSecp256k1PublicKey(Uint8Array.from([4, ...root64]), tweak), expected);
    assert.deepEqual(deriveSecp256k1PublicKey(compressSecp256k1PublicKey(root64), tweak), expected);
    assert.deepEqual(deriveSecp256k1PublicKey(root64, bytesToHex(tweak)), expected);
    assert.equal(
      derivedPublicKey(TESTNET.secp256k1, 'derivation-test.testnet', 'unit-test', 0),
      secp256k1PublicKeyToNaj(expected),
    );
    // The EVM address from the NAJ string directly.
    assert.equal(
      evmAddress(
        'secp256k1:3b3GS4kaAPvzxFUEYKiMvXeuBzttMZosggT3iAAbyZzAfQc1Dn4eLrDshNGGeKZyfSK7xegjPSq553NXHisMLiyA',
      ),
      '0x0513cb2E7ED8B3c9A2ac54CDcaCa32520b0B7311',
    );
  });

  test('ed25519 derived key and Solana address', () => {
    const derived = deriveEd25519PublicKey(TESTNET.ed25519, tweak);
    assert.equal(solanaAddress(derived), '49KFz8zeqrPcaSKqLCXtY79zW98ZW6Nd7W8vSsC7FdKJ');
    assert.equal(ed25519PublicKeyToNaj(derived), 'ed25519:49KFz8zeqrPcaSKqLCXtY79zW98ZW6Nd7W8vSsC7FdKJ');
    assert.equal(
      solanaAddress('ed25519:49KFz8zeqrPcaSKqLCXtY79zW98ZW6Nd7W8vSsC7FdKJ'),
      solanaAddress(derived),
    );
    assert.deepEqual(deriveEd25519PublicKey(najToEd25519PublicKey(TESTNET.ed25519), tweak), derived);
    assert.equal(
      derivedPublicKey(TESTNET.ed25519, 'derivation-test.testnet', 'unit-test', 1),
      'ed25519:49KFz8zeqrPcaSKqLCXtY79zW98ZW6Nd7W8vSsC7FdKJ',
    );
    assert.equal(nearImplicitAccountId(derived), bytesToHex(derived));
    assert.match(nearImplicitAccountId(derived), /^[0-9a-f]{64}$/);
  });
});

describe('EVM address vectors', () => {
  test('mainnet example.near', () => {
    const one = evmAddress(
      deriveSecp256k1PublicKey(MAINNET.secp256k1, deriveTweak('example.near', 'ethereum-1')),
    );
    const two = evmAddress(
      deriveSecp256k1PublicKey(MAINNET.secp256k1, deriveTweak('example.near', 'ethereum-2')),
    );
    assert.equal(one.toLowerCase(), '0xef4ea05e5c11057decc8e1bd6f5369f2acd91fa5');
    assert.equal(two.toLowerCase(), '0x273eeb4d7651d9296ec5bd9a6ceebca219101cb8');
    assert.equal(one, toChecksumAddress(one.toLowerCase()));
  });

  test('testnet omnitester.testnet / ethereum-1', () => {
    const address = evmAddress(
      deriveSecp256k1PublicKey(TESTNET.secp256k1, deriveTweak('omnitester.testnet', 'ethereum-1')),
    );
    assert.equal(address.toLowerCase(), '0xd8d25820c9b9e2aa9cce55504355e500efcce715');
  });

  test('EIP-55 checksums (the EIP examples)', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      assert.equal(toChecksumAddress(a.toLowerCase()), a);
    }
    assert.throws(() => toChecksumAddress('0x1234'), DerivationError);
  });
});

describe('secret-side derivation matches the public side', () => {
  test('secp256k1: (root + t) mod n · G = root + t·G', () => {
    for (let i = 0; i < 8; i++) {
      const root = rng.secp256k1SecretKey();
      const tweak = deriveTweak(`user${i}.test.near`, `path-${i}`);
      const child = deriveSecp256k1SecretKey(root, tweak);
      assert.deepEqual(
        secp256k1PublicKeyOf(child),
        deriveSecp256k1PublicKey(secp256k1PublicKeyOf(root), tweak),
      );
    }
  });

  test('ed25519: (root + t) mod ℓ · B = root + t·B', () => {
    for (let i = 0; i < 8; i++) {
      const rootScalar = (BigInt(`0x${bytesToHex(rng.secp256k1SecretKey())}`) % ED25519_ORDER) + 1n;
      const tweak = deriveTweak(`user${i}.test.near`, `solana-${i}`);
      const child = deriveEd25519SecretScalar(rootScalar, tweak);
      assert.deepEqual(
        ed25519PublicKeyOfScalar(child),
        deriveEd25519PublicKey(ed25519PublicKeyOfScalar(rootScalar), tweak),
      );
    }
  });

  test('secp256k1 tweak is big-endian; ed25519 tweak is little-endian mod ℓ', () => {
    const one = new Uint8Array(32);
    one[31] = 1; // 1 big-endian, 2^248 little-endian
    const G = secp256k1.Point.BASE;
    const root = rng.secp256k1SecretKey();
    const rootPoint = secp256k1.Point.fromBytes(secp256k1.getPublicKey(root, false));
    assert.deepEqual(
      deriveSecp256k1PublicKey(secp256k1PublicKeyOf(root), one),
      rootPoint.add(G).toBytes(false).subarray(1),
    );
    const edRoot = ed25519.Point.BASE.multiply(12345n);
    assert.deepEqual(
      deriveEd25519PublicKey(edRoot.toBytes(), one),
      edRoot.add(ed25519.Point.BASE.multiply((1n << 248n) % ED25519_ORDER)).toBytes(),
    );
    // A tweak ≥ ℓ is reduced (not refused) on ed25519.
    const big = new Uint8Array(32).fill(0xff);
    assert.deepEqual(
      deriveEd25519PublicKey(edRoot.toBytes(), big),
      edRoot.add(ed25519.Point.BASE.multiply(((1n << 256n) - 1n) % ED25519_ORDER)).toBytes(),
    );
  });

  test('a secp256k1 tweak ≥ n is an error; a zero tweak gives the root', () => {
    const root = secp256k1PublicKeyOf(rng.secp256k1SecretKey());
    assert.throws(() => deriveSecp256k1PublicKey(root, bigIntToBytesBE(SECP256K1_ORDER)), DerivationError);
    assert.throws(() => deriveSecp256k1PublicKey(root, new Uint8Array(32).fill(0xff)), DerivationError);
    assert.throws(
      () => deriveSecp256k1SecretKey(rng.secp256k1SecretKey(), bigIntToBytesBE(SECP256K1_ORDER)),
      DerivationError,
    );
    assert.deepEqual(deriveSecp256k1PublicKey(root, bigIntToBytesBE(SECP256K1_ORDER - 1n)).length, 64);
    assert.deepEqual(deriveSecp256k1PublicKey(root, new Uint8Array(32)), root);
  });
});

describe('NAJ helpers', () => {
  test('round trips and validation', () => {
    const pk = najToSecp256k1PublicKey(TESTNET.secp256k1);
    assert.equal(secp256k1PublicKeyToNaj(pk), TESTNET.secp256k1);
    assert.equal(secp256k1PublicKeyToNaj(compressSecp256k1PublicKey(pk)), TESTNET.secp256k1);
    assert.deepEqual(secp256k1PublicKeyBytes(TESTNET.secp256k1), pk);
    assert.equal(ed25519PublicKeyToNaj(najToEd25519PublicKey(TESTNET.ed25519)), TESTNET.ed25519);
    assert.equal(parseNajPublicKey(TESTNET.ed25519).curve, 'ed25519');
    assert.equal(parseNajPublicKey(TESTNET.secp256k1).curve, 'secp256k1');
    assert.throws(() => parseNajPublicKey('rsa:abc'), DerivationError);
    assert.throws(() => najToSecp256k1PublicKey(TESTNET.ed25519), DerivationError);
    assert.throws(() => najToEd25519PublicKey('ed25519:0OIl'), DerivationError);
    // 64 bytes that are not a point on the curve
    assert.throws(() => secp256k1PublicKeyToNaj(new Uint8Array(64).fill(1)), DerivationError);
    assert.throws(() => hexToBytes('abc'), DerivationError);
    assert.deepEqual(hexToBytes('0xAbCd'), Uint8Array.from([0xab, 0xcd]));
  });

  test('deriveChildPublicKeyNaj by domain', () => {
    const tweak = deriveTweak('derivation-test.testnet', 'unit-test');
    assert.equal(
      deriveChildPublicKeyNaj(TESTNET.ed25519, tweak, 1),
      'ed25519:49KFz8zeqrPcaSKqLCXtY79zW98ZW6Nd7W8vSsC7FdKJ',
    );
    assert.throws(() => deriveChildPublicKeyNaj(TESTNET.ed25519, tweak, 2), DerivationError);
  });
});
