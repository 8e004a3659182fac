/**
 * Compatibility with chainsig.js@1.1.16 (npm) and viem: their derivation gives our derived keys, and an
 * ECDSA response from `signEcdsa`, converted with chainsig's `toRSV`, recovers with viem to our EVM address.
 *
 * chainsig.js is loaded in a plain `node` child process: under this repo's `--conditions=source` its
 * dependencies (e.g. @aptos-labs/ts-sdk) would resolve to their TypeScript sources and fail to load.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testRandom } from '../../../test/test-random.js';
import { evmAddress } from './addresses.js';
import {
  bytesToHex,
  deriveEd25519PublicKey,
  deriveSecp256k1PublicKey,
  deriveTweak,
  ed25519PublicKeyToNaj,
} from './derivation.js';
import { RootKeys } from './root-keys.js';
import { signEcdsa } from './signing.js';

const rng = testRandom('packages/mpc/src/chainsig-compat.e2e.test.ts');

const ORACLE = `
import { utils } from 'chainsig.js';
import { recoverAddress, getAddress, keccak256 } from 'viem';
const input = JSON.parse(process.argv[1]);
const c = utils.cryptography;
const out = { secp256k1: [], ed25519: [], recovered: [] };
for (const { predecessor, path } of input.derivations) {
  const child = c.deriveChildPublicKey(c.najToUncompressedPubKeySEC1(input.root.secp256k1), predecessor, path);
  out.secp256k1.push({ key: child, address: getAddress('0x' + keccak256('0x' + child.slice(2)).slice(-40)) });
  out.ed25519.push(c.deriveChildPublicKeyEd25519(input.root.ed25519, predecessor, path));
}
for (const { payload, response } of input.signatures) {
  const rsv = c.toRSV(response);
  const signature = '0x' + rsv.r + rsv.s + rsv.v.toString(16).padStart(2, '0');
  out.recovered.push(await recoverAddress({ hash: '0x' + payload, signature }));
}
process.stdout.write(JSON.stringify(out));
`;

function runOracle(input: unknown): {
  secp256k1: Array<{ key: string; address: string }>;
  ed25519: string[];
  recovered: string[];
} {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const stdout = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', ORACLE, JSON.stringify(input)],
    {
      cwd,
      encoding: 'utf8',
      // A plain node: no --conditions=source, no tsx loader.
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  return JSON.parse(stdout);
}

const TESTNET = {
  secp256k1:
    'secp256k1:4NfTiv3UsGahebgTaHyD9vF8KYKMBnfd6kh94mK6xv8fGBiJB8TBtFMP5WWXz6B89Ac1fbpzPwAvoyQebemHFwx3',
  ed25519: 'ed25519:6vSEtQxrQj6txUMh33WC4ERyCWmNMRTdufDWAaDY3Un2',
};

describe('chainsig.js@1.1.16 and viem agree', () => {
  test('derived keys, EVM addresses and recovered signers', () => {
    const local = RootKeys.generate();
    const derivations = [
      { predecessor: 'derivation-test.testnet', path: 'unit-test' },
      { predecessor: 'my-contract.test.near', path: 'ethereum-1' },
      { predecessor: 'agent.test.near', path: '' },
      { predecessor: 'alice.test.near', path: 'bitcoin,1' },
      { predecessor: 'bob.test.near', path: 'solana-ü-✓' },
    ];
    const signatures: Array<{ payload: string; response: unknown; expected: string }> = [];
    for (const [i, d] of derivations.entries()) {
      const tweak = deriveTweak(d.predecessor, d.path);
      const expected = evmAddress(deriveSecp256k1PublicKey(local.secp256k1PublicKey, tweak));
      // Several payloads per key, so that both the flipped (high-S) and kept cases occur.
      for (let j = 0; j < 4; j++) {
        const payload = new Uint8Array(rng.bytes(32));
        payload[0] = i * 16 + j;
        signatures.push({
          payload: bytesToHex(payload),
          response: signEcdsa(local.childSecret(0, tweak), payload),
          expected,
        });
      }
    }
    const testnet = runOracle({ root: TESTNET, derivations, signatures: [] });
    const ours = runOracle({ root: local.publicKeys(), derivations, signatures });

    for (const [i, d] of derivations.entries()) {
      const tweak = deriveTweak(d.predecessor, d.path);
      for (const [root, result] of [
        [TESTNET, testnet],
        [local.publicKeys(), ours],
      ] as const) {
        const secp = deriveSecp256k1PublicKey(root.secp256k1, tweak);
        assert.equal(result.secp256k1[i].key, `04${bytesToHex(secp)}`, `${d.predecessor}/${d.path}`);
        assert.equal(result.secp256k1[i].address, evmAddress(secp));
        assert.equal(result.ed25519[i], ed25519PublicKeyToNaj(deriveEd25519PublicKey(root.ed25519, tweak)));
      }
    }
    assert.equal(testnet.secp256k1[0].address, '0x0513cb2E7ED8B3c9A2ac54CDcaCa32520b0B7311');
    assert.equal(testnet.ed25519[0], 'ed25519:49KFz8zeqrPcaSKqLCXtY79zW98ZW6Nd7W8vSsC7FdKJ');
    assert.deepEqual(
      ours.recovered,
      signatures.map((s) => s.expected),
    );
    // Both prefix cases were exercised: some responses have a prefix that disagrees with the recovery id.
    const mismatched = signatures.filter((s) => {
      const r = s.response as { big_r: { affine_point: string }; recovery_id: number };
      return r.big_r.affine_point.startsWith('03') !== ((r.recovery_id & 1) === 1);
    });
    assert.ok(mismatched.length > 0 && mismatched.length < signatures.length);
  });
});
