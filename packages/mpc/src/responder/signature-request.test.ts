import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isShadeboxError } from '@shadebox/errors';
import { bytesToHex, DerivationError, deriveSecp256k1PublicKey, deriveTweak } from '../derivation.js';
import { RootKeys } from '../root-keys.js';
import { type EcdsaSignatureResponse, recoverEcdsaPublicKey } from '../signing.js';
import { respondTo, UnanswerableRequestError } from './signature-request.js';

const rootKeys = RootKeys.generate();
const tweak = bytesToHex(deriveTweak('alice.test.near', 'ethereum-1'));

test('respondTo signs an ECDSA request with the child key of its tweak', () => {
  const payload = 'cd'.repeat(32);
  const response = respondTo(rootKeys, { tweak, payload: { Ecdsa: payload }, domain_id: 0 });
  assert.deepEqual(
    recoverEcdsaPublicKey(response as EcdsaSignatureResponse, Buffer.from(payload, 'hex')),
    deriveSecp256k1PublicKey(rootKeys.secp256k1PublicKey, tweak),
  );
});

test('respondTo refuses unknown domains and payloads of the wrong kind', () => {
  const cases: Array<[unknown, number, string]> = [
    [{ Eddsa: 'ab' }, 0, 'domain 0 takes an Ecdsa payload'],
    [{ Ecdsa: 'ab'.repeat(32) }, 1, 'domain 1 takes an Eddsa payload'],
    [{ Ecdsa: 'ab'.repeat(32) }, 2, 'unknown domain id 2'],
  ];
  for (const [payload, domainId, message] of cases) {
    assert.throws(
      () => respondTo(rootKeys, { tweak, payload: payload as { Ecdsa: string }, domain_id: domainId }),
      (e: unknown) =>
        e instanceof UnanswerableRequestError &&
        isShadeboxError(e) &&
        e.message === message &&
        e.details.domainId === domainId,
    );
  }
  // A malformed tweak is the derivation's error, a ShadeboxError too.
  assert.throws(
    () => respondTo(rootKeys, { tweak: 'zz', payload: { Ecdsa: 'ab'.repeat(32) }, domain_id: 0 }),
    (e: unknown) => e instanceof DerivationError && isShadeboxError(e) && e.name === 'DerivationError',
  );
});
