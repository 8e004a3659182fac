/**
 * NEAR's production signer builds on a local node (`--signer-wasm`, `--signer-from`): deployed at the MPC
 * contract id, initialised running with the responder's root keys, and answered by the responder found from
 * receipts. Each build's signatures are checked with third-party code only (@noble/curves, viem) against the
 * contract's own `derived_public_key` view and against NEAR's derivation recomputed with @noble. The 3.14.x
 * builds (mainnet's and testnet's `v1.signer`, near-sdk 5.29) import the gas-key host functions of protocol 85
 * and run like the others. A build the responder cannot serve is refused with a clear error.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { UnknownSignerError } from '@shadebox/mpc';
import {
  ChainUnavailableError,
  KeyPool,
  outcomeResult,
  RpcClient,
  sendTransaction,
  viewFunction,
} from '@shadebox/near-client';
import { silentLogger, startNode } from '@shadebox/node';
import { type Action, base58Decode, fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import { recoverPublicKey } from 'viem';
import { startChainSignaturesOn } from './service.js';
import { cachedSignerPath, readSignerCode } from './signer-source.js';

const CORPUS = '/work/shared/corpus/mpc';
const corpusSkip = existsSync(CORPUS) ? false : `${CORPUS} is not on this machine`;

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers
type Json = any;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** NEAR's tweak, recomputed: sha3_256("near-mpc-recovery v0.1.0 epsilon derivation:" + predecessor + "," + path). */
function tweakOf(predecessor: string, path: string): Uint8Array {
  return sha3_256(
    new TextEncoder().encode(`near-mpc-recovery v0.1.0 epsilon derivation:${predecessor},${path}`),
  );
}

/** root + G·tweak (tweak big-endian), as 64 bytes x‖y. */
function derivedSecp256k1(rootNaj: string, tweak: Uint8Array): Uint8Array {
  const root = secp256k1.Point.fromBytes(
    Uint8Array.from([4, ...base58Decode(rootNaj.slice('secp256k1:'.length))]),
  );
  const child = root.add(secp256k1.Point.BASE.multiply(BigInt(`0x${hex(tweak)}`)));
  return child.toBytes(false).subarray(1);
}

/** root + B·(tweak little-endian mod ℓ), 32 bytes. */
function derivedEd25519(rootNaj: string, tweak: Uint8Array): Uint8Array {
  const root = ed25519.Point.fromBytes(base58Decode(rootNaj.slice('ed25519:'.length)));
  const scalar = BigInt(`0x${hex(Uint8Array.from(tweak).reverse())}`) % ed25519.Point.Fn.ORDER;
  return root.add(ed25519.Point.BASE.multiply(scalar)).toBytes();
}

/** A memory node with test.near's key pool and `alice.test.near`. */
async function stack() {
  const node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
  const g = node.accounts[0];
  // Patient: deploying a signer build (megabytes of Wasm) can hold a loaded machine's node for seconds.
  const rpc = new RpcClient(node.rpcUrl, 120_000);
  const root = new KeyPool(rpc, g.accountId, [KeyPair.fromString(g.secretKey)]);
  const aliceKey = KeyPair.fromRandom('ed25519');
  const alice = new KeyPool(rpc, `alice.${g.accountId}`, [aliceKey]);
  await sendPatiently(root, alice.accountId, [
    { type: 'CreateAccount' },
    { type: 'Transfer', deposit: 10n * ONE_NEAR },
    { type: 'AddKey', publicKey: aliceKey.publicKey, accessKey: fullAccessKey() },
  ]);
  return { node, rpc, root, alice };
}

/** Sends and waits for EXECUTED_OPTIMISTIC, asking again when the node's own wait runs out (a loaded
 * machine); the outcome's status. */
async function sendPatiently(pool: KeyPool, receiverId: string, actions: Action[]): Promise<Json> {
  const signed = await pool.sign(receiverId, actions);
  // Handing the same signed transaction over again is harmless (the node takes a known one as sent).
  for (let attempt = 0; ; attempt++) {
    try {
      await sendTransaction(pool.rpc, signed.bytes, 'NONE');
      break;
    } catch (err) {
      if (!(err instanceof ChainUnavailableError) || attempt >= 10) throw err;
    }
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const outcome = await pool.rpc.call<Json>('tx', {
        signed_tx_base64: signed.base64,
        wait_until: 'EXECUTED_OPTIMISTIC',
      });
      outcomeResult(outcome);
      return outcome.status;
    } catch (err) {
      if (!(err instanceof ChainUnavailableError) || attempt >= 10) throw err;
    }
  }
}

async function sign(pool: KeyPool, signerId: string, request: unknown): Promise<Json> {
  const status = await sendPatiently(pool, signerId, [
    {
      type: 'FunctionCall',
      methodName: 'sign',
      args: new TextEncoder().encode(JSON.stringify({ request })),
      gas: 50n * TGAS,
      deposit: 1n,
    },
  ]);
  return JSON.parse(Buffer.from(status.SuccessValue, 'base64').toString('utf8'));
}

/** Checks an ECDSA response with viem (recovery with the response's recovery id) against `derived` (x‖y). */
async function checkEcdsa(response: Json, payloadHex: string, derived: Uint8Array) {
  const recovered = await recoverPublicKey({
    hash: `0x${payloadHex}`,
    signature: {
      r: `0x${response.big_r.affine_point.slice(2)}`,
      s: `0x${response.s.scalar}`,
      yParity: response.recovery_id,
    },
  });
  assert.equal(recovered.toLowerCase(), `0x04${hex(derived)}`);
}

/** Every build in the corpus, read from the directory so that a build added there is tested too. */
const BUILDS = existsSync(CORPUS)
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith('.wasm'))
      .map((f) => f.slice(0, -'.wasm'.length))
      .sort()
  : [];

/**
 * The builds the stack refuses, and the message it refuses them with. Every other build must deploy,
 * initialise running and sign.
 */
const REFUSED: Array<{
  build: RegExp;
  why: string;
  error: new (...args: never[]) => Error;
  message: RegExp;
}> = [
  {
    build: /^chainsig-v0$/,
    why: 'has no get_pending_request view, by which the responder finds and answers requests',
    error: UnknownSignerError,
    message: /not a signer contract this responder knows \(get_pending_request\)/,
  },
];

describe('NEAR production signers: every build in the corpus', { skip: corpusSkip, concurrency: 1 }, () => {
  test('the walk covers the 3.14.x builds NEAR runs as v1.signer (mainnet 3.14.0, testnet 3.14.1)', () => {
    assert.ok(BUILDS.includes('signer-3_14_0') && BUILDS.includes('signer-3_14_1'), BUILDS.join(' '));
  });
  for (const build of BUILDS) {
    const refused = REFUSED.find((r) => r.build.test(build));
    if (refused) {
      test(`${build}: refused with a clear error (${refused.why})`, async () => {
        const { node } = await stack();
        try {
          await assert.rejects(
            startChainSignaturesOn(node, {
              log: silentLogger,
              signerSource: { kind: 'file', path: join(CORPUS, `${build}.wasm`) },
            }),
            (err: unknown) => {
              assert.ok(err instanceof refused.error, String(err));
              assert.match((err as Error).message, refused.message);
              return true;
            },
          );
        } finally {
          await node.stop();
        }
      });
      continue;
    }
    test(`${build}: deployed running with the responder's keys; its signatures verify under NEAR's derivation`, async (t) => {
      const { node, rpc, alice } = await stack();
      const cs = await startChainSignaturesOn(node, {
        log: silentLogger,
        signerSource: { kind: 'file', path: join(CORPUS, `${build}.wasm`) },
      });
      try {
        const signer = cs.mpcContractId;
        assert.equal(
          await viewFunction(rpc, signer, 'public_key', { domain_id: 0 }),
          cs.publicKeys.secp256k1,
        );
        const tweak = tweakOf(alice.accountId, 'ethereum-1');
        const derived = derivedSecp256k1(cs.publicKeys.secp256k1, tweak);
        // The contract's own view agrees with NEAR's derivation recomputed here.
        const view = (await viewFunction(rpc, signer, 'derived_public_key', {
          path: 'ethereum-1',
          predecessor: alice.accountId,
          domain_id: 0,
        })) as string;
        assert.deepEqual(base58Decode(view.slice('secp256k1:'.length)), derived);

        const payload = hex(Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 0x7f));
        // The legacy form every version takes: `payload` as 32 numbers and `key_version`.
        const legacy = await sign(alice, signer, {
          path: 'ethereum-1',
          payload: Array.from(Buffer.from(payload, 'hex')),
          key_version: 0,
        });
        await checkEcdsa(legacy, payload, derived);

        // Builds with domains (2.x, 3.x) answer domain 1 with the Ed25519 root key; chain-signatures v0/v1
        // have one secp256k1 key and no domains (their `public_key` takes no arguments).
        const domain1 = await viewFunction(rpc, signer, 'public_key', { domain_id: 1 }).catch(() => null);
        if (domain1 !== cs.publicKeys.ed25519) {
          assert.ok(domain1 === null || domain1 === cs.publicKeys.secp256k1, `domain 1 answered ${domain1}`);
          t.diagnostic(`${build}: ECDSA only (no domains)`);
          return;
        }
        const ecdsa = await sign(alice, signer, {
          path: 'ethereum-1',
          payload_v2: { Ecdsa: payload },
          domain_id: 0,
        });
        assert.equal(ecdsa.scheme, 'Secp256k1');
        await checkEcdsa(ecdsa, payload, derived);

        const message = new TextEncoder().encode('a Solana transaction, signed whole');
        const eddsa = await sign(alice, signer, {
          path: 'solana-1',
          payload_v2: { Eddsa: hex(message) },
          domain_id: 1,
        });
        assert.equal(eddsa.scheme, 'Ed25519');
        const edKey = derivedEd25519(cs.publicKeys.ed25519, tweakOf(alice.accountId, 'solana-1'));
        assert.ok(ed25519.verify(Uint8Array.from(eddsa.signature), message, edKey));
        t.diagnostic(`${build}: ECDSA and EdDSA`);
      } finally {
        await cs.stop();
        await node.stop();
      }
    });
  }
});

describe('NEAR production signers', { skip: corpusSkip }, () => {
  describe('--signer-from: the code of an account on another node', () => {
    let remote: Awaited<ReturnType<typeof stack>>;
    const home = mkdtempSync(join(tmpdir(), 'shadebox-signer-from-'));
    before(async () => {
      remote = await stack();
      const code = await readSignerCode({ kind: 'file', path: join(CORPUS, 'signer-3_13_0.wasm') }, null);
      await sendPatiently(remote.root, `deployed-signer.${remote.root.accountId}`, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 30n * ONE_NEAR },
        { type: 'DeployContract', code },
      ]);
    });
    after(async () => {
      await remote?.node.stop();
      rmSync(home, { recursive: true, force: true });
    });

    test('read with view_code, cached in the home, deployed and answered locally', async () => {
      const source = {
        kind: 'remote' as const,
        rpcUrl: remote.node.rpcUrl,
        accountId: 'deployed-signer.test.near',
      };
      const code = await readSignerCode(source, home);
      assert.ok(existsSync(cachedSignerPath(home, source)));
      // Cached: read again without the remote.
      assert.deepEqual(await readSignerCode({ ...source, rpcUrl: source.rpcUrl }, home), code);
      await assert.rejects(
        readSignerCode({ ...source, accountId: 'nobody.test.near' }, null),
        /cannot read the code/,
      );

      const { node, rpc, alice } = await stack();
      const cs = await startChainSignaturesOn(node, { log: silentLogger, signerSource: source });
      try {
        const payload = 'ab'.repeat(32);
        const response = await sign(alice, cs.mpcContractId, {
          path: 'p',
          payload_v2: { Ecdsa: payload },
          domain_id: 0,
        });
        await checkEcdsa(
          response,
          payload,
          derivedSecp256k1(cs.publicKeys.secp256k1, tweakOf(alice.accountId, 'p')),
        );
        assert.equal(await viewFunction(rpc, cs.mpcContractId, 'public_key', {}), cs.publicKeys.secp256k1);
      } finally {
        await cs.stop();
        await node.stop();
      }
    });
  });
});
