/**
 * The `contracts` phase: contract calls per second to final, and view calls per second.
 *
 * Shadebox: near-hello 0.5.1 (`node_modules/near-hello/dist/main.wasm`, AssemblyScript) is deployed on
 * `hello.<root>`, created by the root in one transaction (CreateAccount + Transfer + AddKey + DeployContract).
 * Calls: `concurrency` signers (createSigners) each keep one `setValue({"value": <distinct>})` with 30 Tgas in
 * flight through `send_tx` `wait_until: "FINAL"`, counted when the outcome is SuccessValue.
 * Views (view-workload.ts): the storage-reading contract on `kv.<root>`, filled with `VIEW_KEYS` entries by
 * the signers; `query` `call_function` `get(<key>)` at `finality: "final"` over the `VIEW_KEYS` distinct
 * request bodies in turn (more than the node's per-head read cache holds, and each repeats only after all
 * the others), every answer checked to be the 32 bytes stored under its key.
 *
 * anvil: a hand-assembled storage contract (runtime below) is deployed with `eth_sendTransaction {from, data}`
 * and checked (eth_getCode, a store, an eth_call reading it back). Calls: each dev account sends
 * `eth_sendTransaction {from, to, data: <32-byte word>}` and reads the receipt until it is there with status
 * 0x1. Views: a second hand-assembled contract returns the slot named by its calldata; `VIEW_KEYS` slots are
 * set with `anvil_setStorageAt`, then `eth_call {to, data: <slot>}` over the `VIEW_KEYS` distinct bodies in
 * turn, every answer checked to be the slot's value.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { viewFunction } from '@shadebox/near-client';
import { fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import type { LoadResult } from '../load.js';
import { runClosedLoop } from '../load.js';
import { createSigners, type NearSigner, rootSigner, sendFinal } from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import { REPO_ROOT } from '../shadebox-node.js';
import { serverProbes } from './cpu.js';
import { measureReadThroughput } from './read-throughput.js';
import type { TransferOptions, TransferResult } from './transfers.js';
import {
  checkKvAnswer,
  entryKey,
  ethCallBody,
  FILL_BATCH,
  fillArgs,
  kvContractWasm,
  kvViewBody,
  SLOAD_INIT,
  SLOAD_RUNTIME,
  slotValue,
  slotWord,
  VIEW_KEYS,
} from './view-workload.js';

export const NEAR_HELLO_WASM = join(REPO_ROOT, 'node_modules', 'near-hello', 'dist', 'main.wasm');
/** Distinct view requests: more than the read cache's 4,096 entries, so none is answered from it. */
export const VIEW_BODIES = VIEW_KEYS;
/** What the view rows measure, kept in the JSON so that a later run compares ratios of the same workload. */
export const VIEW_WORKLOAD = `storage read keyed by args over ${VIEW_KEYS} distinct requests (kv get | SLOAD)`;
const CALL_GAS = 30n * TGAS;

/**
 * Stores calldata word 0 in slot 0 when there is calldata, else returns slot 0:
 * CALLDATASIZE ISZERO PUSH1 0x0c JUMPI | PUSH1 0 CALLDATALOAD PUSH1 0 SSTORE STOP |
 * JUMPDEST PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 0x20 PUSH1 0 RETURN (24 bytes).
 */
export const STORAGE_RUNTIME = '3615600c57600035600055005b60005460005260206000f3';
/** CODECOPY(0, 0x0c, 0x18) RETURN(0, 0x18), then the runtime. */
export const STORAGE_INIT = `0x6018600c60003960186000f3${STORAGE_RUNTIME}`;

export interface ContractCallResult extends TransferResult {
  contract: string;
}

export interface ViewCallResult extends LoadResult {
  contract: string;
  distinctRequests: number;
  /** `VIEW_WORKLOAD`. */
  workload: string;
  /** Deploying and filling the view contract, ms (not timed in the rate). */
  setupMs: number;
}

export interface ContractResults {
  calls: ContractCallResult | { error: string };
  views: ViewCallResult | { error: string };
}

const withBlocks = (result: LoadResult, setupMs: number, contract: string): ContractCallResult => {
  const blocks = result.deltas.blocks ?? Number.NaN;
  return {
    ...result,
    setupMs,
    contract,
    blocksPerSecond: blocks / (result.durationMs / 1000),
    transfersPerBlock: result.completed / blocks,
  };
};

const errorOf = (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) });

const utf8 = (s: string) => new TextEncoder().encode(s);

/** A view call at `finality: "final"`; its result as text. */
async function viewText(client: PooledRpcClient, contract: string, method: string, args: object) {
  const value = await viewFunction(client, contract, method, args, { finality: 'final' });
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Deploys near-hello on `hello.<root>` and runs both loads on it. */
export async function measureShadeboxContracts(
  rpcUrl: string,
  pid: number,
  root: { accountId: string; secretKey: string },
  options: TransferOptions,
): Promise<ContractResults> {
  const client = new PooledRpcClient(rpcUrl, options.concurrency);
  const side = new PooledRpcClient(rpcUrl, 1);
  const contract = `hello.${root.accountId}`;
  try {
    const setupStart = performance.now();
    const contractKey = KeyPair.fromRandom('ed25519');
    await sendFinal(rootSigner(client, root), contract, [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 10n * ONE_NEAR },
      { type: 'AddKey', publicKey: contractKey.publicKey, accessKey: fullAccessKey() },
      { type: 'DeployContract', code: new Uint8Array(readFileSync(NEAR_HELLO_WASM)) },
    ]);
    const greeting = await viewText(client, contract, 'hello', { name: 'bench' });
    if (!greeting.includes('bench')) throw new Error(`hello answered ${greeting}`);
    const signers = await createSigners(client, root, options.concurrency, 'caller');
    const setupMs = performance.now() - setupStart;

    const sequence = new Array<number>(signers.length).fill(0);
    let lastValue = '';
    let calls: ContractResults['calls'];
    try {
      const result = await runClosedLoop({
        ...options,
        drainTimeoutMs: 15_000,
        probes: {
          ...serverProbes(pid),
          blocks: async () =>
            (await side.call<{ header: { height: number } }>('block', { finality: 'optimistic' })).header
              .height,
        },
        // The signer's pool reads the key's nonce again when a send failed without an answer from the chain.
        operation: async (i) => {
          const value = `v${i}-${sequence[i]++}`;
          await sendFinal(signers[i], contract, [
            {
              type: 'FunctionCall',
              methodName: 'setValue',
              args: utf8(JSON.stringify({ value })),
              gas: CALL_GAS,
              deposit: 0n,
            },
          ]);
          lastValue = value;
        },
      });
      // The calls did write: the contract holds one of the values (the last one to reach final).
      const stored = await viewText(client, contract, 'getValue', {});
      if (lastValue && !/^"?v\d+-\d+"?$/.test(stored)) throw new Error(`getValue answered ${stored}`);
      calls = withBlocks(result, setupMs, contract);
    } catch (error) {
      calls = errorOf(error);
    }

    let views: ContractResults['views'];
    try {
      const viewSetupStart = performance.now();
      const kv = await deployKvContract(client, root, signers);
      const bodies = Array.from({ length: VIEW_KEYS }, (_, k) => kvViewBody(kv, k));
      const setupMs = performance.now() - viewSetupStart;
      const result = await measureReadThroughput(rpcUrl, pid, bodies, {
        concurrency: options.concurrency,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
        validate: checkKvAnswer,
      });
      views = { ...result, contract: kv, distinctRequests: bodies.length, workload: VIEW_WORKLOAD, setupMs };
    } catch (error) {
      views = errorOf(error);
    }
    return { calls, views };
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
}

/**
 * Creates `kv.<root>` with the storage-reading contract, fills its `VIEW_KEYS` entries (`fill` calls of
 * `FILL_BATCH`, each signer sending its share one after another, all to FINAL) and checks the first and the
 * last entry with a view. Returns the account.
 */
async function deployKvContract(
  client: PooledRpcClient,
  root: { accountId: string; secretKey: string },
  signers: NearSigner[],
): Promise<string> {
  const kv = `kv.${root.accountId}`;
  await sendFinal(rootSigner(client, root), kv, [
    { type: 'CreateAccount' },
    // Storage staking: about 76 bytes per entry (4 + 32 + 40), 2.5 MB for 32,768 entries.
    { type: 'Transfer', deposit: 50n * ONE_NEAR },
    { type: 'AddKey', publicKey: KeyPair.fromRandom('ed25519').publicKey, accessKey: fullAccessKey() },
    { type: 'DeployContract', code: await kvContractWasm() },
  ]);
  const batches = Math.ceil(VIEW_KEYS / FILL_BATCH);
  await Promise.all(
    signers.map(async (signer, s) => {
      for (let b = s; b < batches; b += signers.length) {
        const from = b * FILL_BATCH;
        await sendFinal(signer, kv, [
          {
            type: 'FunctionCall',
            methodName: 'fill',
            args: fillArgs(from, Math.min(FILL_BATCH, VIEW_KEYS - from)),
            gas: 300n * TGAS,
            deposit: 0n,
          },
        ]);
      }
    }),
  );
  for (const k of [0, VIEW_KEYS - 1]) {
    const answer = await client.call('query', {
      request_type: 'call_function',
      finality: 'final',
      account_id: kv,
      method_name: 'get',
      args_base64: entryKey(k).toString('base64'),
    });
    checkKvAnswer(answer, k);
  }
  return kv;
}

interface EthReceipt {
  status: string;
  contractAddress?: string | null;
}

async function receipt(client: PooledRpcClient, hash: string): Promise<EthReceipt> {
  for (let attempt = 0; ; attempt++) {
    const r = await client.call<EthReceipt | null>('eth_getTransactionReceipt', [hash]);
    if (r) {
      if (r.status !== '0x1') throw new Error(`transaction ${hash} reverted`);
      return r;
    }
    if (attempt > 1000) throw new Error(`no receipt for ${hash}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** Deploys the storage contract on anvil, checks it, and runs both loads on it. */
export async function measureAnvilContracts(
  rpcUrl: string,
  pid: number,
  options: TransferOptions,
): Promise<ContractResults> {
  const client = new PooledRpcClient(rpcUrl, options.concurrency);
  const side = new PooledRpcClient(rpcUrl, 1);
  try {
    const setupStart = performance.now();
    const accounts = await client.call<string[]>('eth_accounts', []);
    if (accounts.length < options.concurrency) {
      throw new Error(`anvil has ${accounts.length} dev accounts, need ${options.concurrency}`);
    }
    const deployHash = await client.call<string>('eth_sendTransaction', [
      { from: accounts[0], data: STORAGE_INIT },
    ]);
    const contract = (await receipt(client, deployHash)).contractAddress;
    if (!contract) throw new Error('the deployment receipt has no contractAddress');
    const code = await client.call<string>('eth_getCode', [contract, 'latest']);
    if (code.toLowerCase() !== `0x${STORAGE_RUNTIME}`) throw new Error(`eth_getCode answered ${code}`);
    const probe = word(0xbe0c);
    await receipt(
      client,
      await client.call<string>('eth_sendTransaction', [{ from: accounts[0], to: contract, data: probe }]),
    );
    const readBack = await client.call<string>('eth_call', [{ to: contract, data: '0x' }, 'latest']);
    if (readBack !== probe) throw new Error(`eth_call read ${readBack}, stored ${probe}`);
    const setupMs = performance.now() - setupStart;

    let calls: ContractResults['calls'];
    let sent = 0;
    try {
      const result = await runClosedLoop({
        ...options,
        drainTimeoutMs: 15_000,
        probes: {
          ...serverProbes(pid),
          blocks: async () => Number(await side.call<string>('eth_blockNumber', [])),
        },
        operation: async (i) => {
          const data = word(++sent);
          const hash = await client.call<string>('eth_sendTransaction', [
            { from: accounts[i], to: contract, data },
          ]);
          await receipt(client, hash);
        },
      });
      calls = withBlocks(result, setupMs, contract);
    } catch (error) {
      calls = errorOf(error);
    }

    let views: ContractResults['views'];
    try {
      const viewSetupStart = performance.now();
      const reader = await deployAnvilSlotReader(client, rpcUrl, accounts[0]);
      const bodies = Array.from({ length: VIEW_KEYS }, (_, k) => ethCallBody(reader, k));
      const expected = Array.from({ length: VIEW_KEYS }, (_, k) => slotValue(k));
      const setupMs = performance.now() - viewSetupStart;
      const result = await measureReadThroughput(rpcUrl, pid, bodies, {
        concurrency: options.concurrency,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
        validate: (r, k) => {
          if (r !== expected[k]) throw new Error(`eth_call of slot ${k} answered ${String(r)}`);
        },
      });
      views = {
        ...result,
        contract: reader,
        distinctRequests: bodies.length,
        workload: VIEW_WORKLOAD,
        setupMs,
      };
    } catch (error) {
      views = errorOf(error);
    }
    return { calls, views };
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
}

/**
 * Deploys the slot-reading contract on anvil, sets its `VIEW_KEYS` slots with `anvil_setStorageAt` (JSON-RPC
 * batches of 1,024) and checks its code and the first and last slot with `eth_call`. Returns its address.
 */
async function deployAnvilSlotReader(client: PooledRpcClient, rpcUrl: string, from: string): Promise<string> {
  const hash = await client.call<string>('eth_sendTransaction', [{ from, data: SLOAD_INIT }]);
  const reader = (await receipt(client, hash)).contractAddress;
  if (!reader) throw new Error('the deployment receipt has no contractAddress');
  const code = await client.call<string>('eth_getCode', [reader, 'latest']);
  if (code.toLowerCase() !== `0x${SLOAD_RUNTIME}`) throw new Error(`eth_getCode answered ${code}`);
  for (let from = 0; from < VIEW_KEYS; from += 1024) {
    const batch = Array.from({ length: Math.min(1024, VIEW_KEYS - from) }, (_, i) => ({
      jsonrpc: '2.0',
      id: from + i,
      method: 'anvil_setStorageAt',
      params: [reader, slotWord(from + i), slotValue(from + i)],
    }));
    const res = await client.pool.request({
      path: new URL(rpcUrl).pathname,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    const answers = (await res.body.json()) as Array<{ result?: unknown; error?: unknown }>;
    const failed = answers.find((a) => a.result !== true);
    if (answers.length !== batch.length || failed) {
      throw new Error(`anvil_setStorageAt: ${JSON.stringify(failed ?? answers.length).slice(0, 200)}`);
    }
  }
  for (const k of [0, VIEW_KEYS - 1]) {
    const value = await client.call<string>('eth_call', [{ to: reader, data: slotWord(k) }, 'latest']);
    if (value !== slotValue(k)) throw new Error(`eth_call of slot ${k} answered ${value}`);
  }
  return reader;
}
