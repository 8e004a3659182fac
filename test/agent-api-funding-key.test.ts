/**
 * The funding key is the boot's only (docs/agent-api.md#production): given as CHAIN_ACCOUNT_SECRET_KEY_FILE it
 * funds the agent, and once the service is ready no string in the process's heap holds it (a heap snapshot is
 * searched for it); given in the environment, the configuration object and the key object are collected once
 * the caller drops them (WeakRefs), so no part of the service — the funding key pool included — refers to
 * them. As far as JS allows: the bytes inside a collected object are not wiped, and process.env is not ours.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadAgentApiConfig, type RunningAgentApi, startAgentApi } from '@shadebox/agent-api';
import { viewAccessKey } from '@shadebox/near-client';
import { fullAccessKey, KeyPair, ONE_NEAR } from '@shadebox/primitives';
import { type Chain, fnCall, ready, startChain } from './agent-stack-helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CODEHASH = 'e'.repeat(64);
const silent = { info() {}, warn() {}, error() {} };

/** Lets pending jobs end (WeakRef targets are kept until then), then collects garbage, thrice. */
async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
}

describe('the funding key after the boot', () => {
  let chain: Chain;
  let dir: string;
  const apis: RunningAgentApi[] = [];

  before(async () => {
    chain = await startChain();
    await chain.owner.send('agent.test.near', [fnCall('approve_codehash', { codehash: CODEHASH })]);
    dir = mkdtempSync(join(tmpdir(), 'funding-key-'));
  });
  after(async () => {
    for (const api of apis) await api.stop();
    await chain?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A new funding account holding 10 NEAR; its key is given to `use` and dropped after. */
  async function fundingAccount(accountId: string, use: (secret: string) => void): Promise<string> {
    const key = KeyPair.fromRandom();
    await chain.owner.send(accountId, [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 10n * ONE_NEAR },
      { type: 'AddKey', publicKey: key.publicKey, accessKey: fullAccessKey() },
    ]);
    use(key.toString());
    return key.publicKeyString;
  }

  const env = (fundingAccountId: string) => ({
    CHAIN_ACCOUNT_ID: fundingAccountId,
    AGENT_CONTRACT_ID: 'agent.test.near',
    NEAR_RPC_URL: chain.node.rpcUrl,
    AGENT_CODEHASH: CODEHASH,
    AGENT_API_PORT: '0',
    AGENT_KEY_POOL_SIZE: '1',
    TEE_MODE: 'local',
  });

  it('CHAIN_ACCOUNT_SECRET_KEY_FILE funds the agent, and no string in the heap holds the key after', async () => {
    const path = join(dir, 'funding-key');
    /** The key's base58 body, as bytes: a Buffer's content is not a string of the heap. */
    let needle = Buffer.alloc(0);
    const publicKey = await fundingAccount('file-funder.test.near', (secret) => {
      writeFileSync(path, `${secret}\n`, { mode: 0o600 });
      needle = Buffer.from(secret.slice(secret.indexOf(':') + 1));
    });
    const api = await startAgentApi(
      loadAgentApiConfig({ ...env('file-funder.test.near'), CHAIN_ACCOUNT_SECRET_KEY_FILE: path }),
      { log: silent },
    );
    apis.push(api);
    const agentId = await ready(api, 60_000);
    const nonce = (await viewAccessKey(chain.rpc, 'file-funder.test.near', publicKey)).nonce;
    assert.ok(nonce > 0n, 'the funding account signed (the key from the file was used)');

    await collect();
    const snapshot = writeHeapSnapshot(join(dir, 'after-boot.heapsnapshot'));
    const heap = readFileSync(snapshot);
    rmSync(snapshot);
    assert.ok(heap.includes(Buffer.from(agentId)), 'the search finds what the service holds (the agent id)');
    assert.equal(heap.includes(needle), false, 'no string holds the funding key');
  });

  it('given in the environment, the configuration and the key object are not held by the service', async () => {
    let refs: { config: WeakRef<object>; copy: WeakRef<object>; key: WeakRef<object> } | undefined;
    let secret = '';
    await fundingAccount('env-funder.test.near', (s) => {
      secret = s;
    });
    const api = await (async () => {
      const config = loadAgentApiConfig({ ...env('env-funder.test.near'), CHAIN_ACCOUNT_SECRET_KEY: secret });
      const copy = { ...config, retryInitialMs: 50 };
      refs = { config: new WeakRef(config), copy: new WeakRef(copy), key: new WeakRef(config.fundingKey!) };
      return startAgentApi(copy, { log: silent });
    })();
    secret = '';
    apis.push(api);
    await ready(api, 60_000);
    await collect();
    assert.equal(refs!.config.deref(), undefined, 'the configuration was collected');
    assert.equal(refs!.copy.deref(), undefined, 'the configuration the service got was collected');
    assert.equal(refs!.key.deref(), undefined, 'the funding key (and any pool holding it) was collected');
    assert.equal(
      (await fetch(`${api.url}/getAccountId`, { method: 'POST' })).status,
      200,
      'the service runs',
    );
  });
});
