import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UsageError } from '../usage-error.js';
import { initRunningAttempts } from './production-signer.js';
import { cachedSignerPath, signerSourceFromFlags } from './signer-source.js';

const C = 'shadebox node';

describe('--signer-wasm / --signer-from', () => {
  test('a file relative to the working directory; a URL with an optional account (default v1.signer)', () => {
    assert.equal(signerSourceFromFlags(C, {}, '/w'), undefined);
    assert.deepEqual(signerSourceFromFlags(C, { 'signer-wasm': 'b/signer.wasm' }, '/w'), {
      kind: 'file',
      path: '/w/b/signer.wasm',
    });
    assert.deepEqual(signerSourceFromFlags(C, { 'signer-from': 'https://rpc.mainnet.near.org' }, '/w'), {
      kind: 'remote',
      rpcUrl: 'https://rpc.mainnet.near.org',
      accountId: 'v1.signer',
    });
    assert.deepEqual(
      signerSourceFromFlags(C, { 'signer-from': 'http://127.0.0.1:3030#v1.signer-prod.testnet' }, '/w'),
      { kind: 'remote', rpcUrl: 'http://127.0.0.1:3030', accountId: 'v1.signer-prod.testnet' },
    );
  });

  test('usage errors: both flags, not a URL, not an account id', () => {
    for (const flags of [
      { 'signer-wasm': 'a.wasm', 'signer-from': 'http://x' },
      { 'signer-from': 'rpc.mainnet.near.org' },
      { 'signer-from': 'http://x#Not Valid' },
      { 'signer-wasm': '' },
    ]) {
      assert.throws(() => signerSourceFromFlags(C, flags, '/w'), UsageError, JSON.stringify(flags));
    }
  });

  test('a remote code is cached per account and URL', () => {
    const a = cachedSignerPath('/h', { rpcUrl: 'http://a', accountId: 'v1.signer' });
    assert.match(a, /^\/h\/signer-code\/v1\.signer@[0-9a-f]{12}\.wasm$/);
    assert.notEqual(a, cachedSignerPath('/h', { rpcUrl: 'http://b', accountId: 'v1.signer' }));
  });
});

describe('init_running shapes', () => {
  test('3.x, early 3.x, 2.x and v1, all with the same keys and participants', () => {
    const keys = {
      secp256k1:
        'secp256k1:578NbGEWcAjCK6EZ3zAb8h3pCKvq3fowZZxBZ9ZGfXtNojXxUTmqkTh8aBTprENMQhFP7SM73Xph3bMkAFLdvZhh',
      ed25519: 'ed25519:DC8wSuckcMdcSSjeVE1Nxam8nfCxg7ZyHXBaQuQbMP6t',
    };
    const participants = [
      { accountId: 'mpc-responder.test.near', publicKey: keys.ed25519 },
      {
        accountId: 'mpc-participant-2.test.near',
        publicKey: 'ed25519:6MzZEsjMbwECXW6oJmV6AAsypZnGgm3PSgh4LrgNcMzA',
      },
    ];
    const attempts = initRunningAttempts(keys, participants);
    assert.deepEqual(
      attempts.map((a) => a.label),
      [
        '3.x (protocol, reconstruction_threshold)',
        '3.10 (protocol, reconstruction_threshold; no sign_pk)',
        '3.9 (curve, purpose)',
        '3.x (scheme, purpose)',
        '2.x (scheme)',
        'legacy v1',
      ],
    );
    // biome-ignore lint/suspicious/noExplicitAny: JSON arguments
    const nine = attempts[2].args as any;
    assert.deepEqual(nine.domains[1], { id: 1, curve: 'Edwards25519', purpose: 'Sign' });
    assert.equal(nine.parameters.participants.participants[0][2].sign_pk, keys.ed25519);
    // biome-ignore lint/suspicious/noExplicitAny: JSON arguments
    const three = attempts[0].args as any;
    assert.deepEqual(three.domains[1], {
      id: 1,
      protocol: 'Frost',
      purpose: 'Sign',
      reconstruction_threshold: 2,
    });
    assert.equal(three.keyset.domains[0].key.Secp256k1.near_public_key, keys.secp256k1);
    assert.equal(three.keyset.domains[1].key.Ed25519.edwards_point.length, 32);
    assert.deepEqual(three.parameters.participants.participants[0].slice(0, 2), [
      'mpc-responder.test.near',
      0,
    ]);
    assert.equal(three.parameters.participants.participants[0][2].tls_public_key, keys.ed25519);
    // biome-ignore lint/suspicious/noExplicitAny: JSON arguments
    const v1 = attempts[5].args as any;
    assert.equal(v1.public_key, keys.secp256k1);
    assert.equal(v1.participants.account_to_participant_id['mpc-participant-2.test.near'], 1);
  });
});
