import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bytesToHex, deriveTweak } from '../derivation.js';
import { signCallRequest, signCallRequestFromBase64 } from './sign-call.js';
import { contractRequest, respondArgs, servesRequest } from './signer-flavor.js';

const tweak = bytesToHex(deriveTweak('alice.near', 'ethereum-1'));

describe('signCallRequest: every form of the sign arguments', () => {
  test('2.x/3.x payload_v2 with domain_id (Ecdsa, Eddsa of any length up to 1232 bytes)', () => {
    assert.deepEqual(
      signCallRequest(
        { request: { path: 'ethereum-1', payload_v2: { Ecdsa: 'AB'.repeat(32) }, domain_id: 0 } },
        'alice.near',
      ),
      { tweak, payload: { Ecdsa: 'ab'.repeat(32) }, domain_id: 0 },
    );
    assert.deepEqual(
      signCallRequest(
        { request: { path: 'ethereum-1', payload_v2: { Eddsa: '01' }, domain_id: 1 } },
        'alice.near',
      ),
      { tweak, payload: { Eddsa: '01' }, domain_id: 1 },
    );
    assert.equal(
      signCallRequest(
        { request: { path: 'p', payload_v2: { Eddsa: '01'.repeat(1233) }, domain_id: 1 } },
        'a.near',
      ),
      null,
    );
  });

  test('the legacy payload (32 numbers) and key_version; v1 arguments', () => {
    const payload = Array.from({ length: 32 }, (_, i) => i);
    assert.deepEqual(
      signCallRequest({ request: { path: 'ethereum-1', payload, key_version: 0 } }, 'alice.near'),
      {
        tweak,
        payload: { Ecdsa: bytesToHex(Uint8Array.from(payload)) },
        domain_id: 0,
      },
    );
    const base64 = Buffer.from(
      JSON.stringify({ request: { path: 'ethereum-1', payload, key_version: 0 } }),
    ).toString('base64');
    assert.deepEqual(
      signCallRequestFromBase64(base64, 'alice.near'),
      signCallRequest({ request: { path: 'ethereum-1', payload, key_version: 0 } }, 'alice.near'),
    );
  });

  test('what the contract refuses gives null', () => {
    const ok = { path: 'p', payload_v2: { Ecdsa: '00'.repeat(32) }, domain_id: 0 };
    for (const request of [
      { ...ok, payload: new Array(32).fill(0) }, // both payload forms
      { ...ok, key_version: 0 }, // both domain forms
      { ...ok, payload_v2: { Ecdsa: '00'.repeat(31) } }, // not 32 bytes
      { ...ok, payload_v2: { Ecdsa: 'zz'.repeat(32) } }, // not hex
      { path: 'p', payload: new Array(31).fill(0) },
      { payload_v2: ok.payload_v2 }, // no path
    ]) {
      assert.equal(signCallRequest({ request }, 'a.near'), null, JSON.stringify(request));
    }
    assert.equal(signCallRequestFromBase64(Buffer.from('not json').toString('base64'), 'a.near'), null);
  });
});

describe('signer flavors: the request each contract keeps and its respond arguments', () => {
  const request = { tweak, payload: { Ecdsa: 'ab'.repeat(32) }, domain_id: 0 };
  const response = {
    scheme: 'Secp256k1' as const,
    big_r: { affine_point: `02${'cd'.repeat(32)}` },
    s: { scalar: 'ef'.repeat(32) },
    recovery_id: 1,
  };

  test('shadebox keeps the hex tweak; 2.x/3.x an array of 32 numbers', () => {
    assert.deepEqual(contractRequest('shadebox', request), request);
    assert.deepEqual(contractRequest('mpc', request), {
      tweak: Array.from(Buffer.from(tweak, 'hex')),
      payload: request.payload,
      domain_id: 0,
    });
    assert.deepEqual(respondArgs('mpc', request, response), {
      request: contractRequest('mpc', request),
      response,
    });
  });

  test('legacy v1: epsilon and payload hash as upper-case scalars, a response without scheme, ECDSA only', () => {
    assert.deepEqual(respondArgs('legacy-v1', request, response), {
      request: { epsilon: { scalar: tweak.toUpperCase() }, payload_hash: { scalar: 'AB'.repeat(32) } },
      response: {
        big_r: { affine_point: `02${'CD'.repeat(32)}` },
        s: { scalar: 'EF'.repeat(32) },
        recovery_id: 1,
      },
    });
    assert.equal(servesRequest('legacy-v1', request), true);
    assert.equal(servesRequest('legacy-v1', { tweak, payload: { Eddsa: '01' }, domain_id: 1 }), false);
    assert.equal(servesRequest('mpc', { tweak, payload: { Eddsa: '01' }, domain_id: 1 }), true);
  });
});
