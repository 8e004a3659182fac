/**
 * The `contracts` phase: contract calls per second to final, and view calls per second.
 *
 * Shadebox: near-hello 0.5.1 (`node_modules/near-hello/dist/main.wasm`, AssemblyScript) is deployed on
 * `hello.<root>`, created by the root in one transaction (CreateAccount + Transfer + AddKey + DeployContract).
 * Calls: `concurrency` signers (createSigners) each keep one `setValue({"value": <distinct>})` with 30 Tgas in
 * flight through `send_tx` `wait_until: "FINAL"`, counted when the outcome is SuccessValue.
 * Views: `query` `call_function` `hello({"name": "n<k>"})` at `finality: "final"`, k cycling over 5,000
 * distinct request bodies (more than the node's per-head read cache holds, and each repeats only after the
 * 4,999 others), every answer checked to carry `result.result` bytes and no `result.error`.
 *
 * anvil: a hand-assembled storage contract (runtime below) is deployed with `eth_sendTransaction {from, data}`
 * and checked (eth_getCode, a store, an eth_call reading it back). Calls: each dev account sends
 * `eth_sendTransaction {from, to, data: <32-byte word>}` and reads the receipt until it is there with status
 * 0x1. Views: `eth_call {to, data: "0x"}`, which returns slot 0.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { viewFunction } from '@shadebox/near-client';
import { fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import type { LoadResult } from '../load.js';
import { runClosedLoop } from '../load.js';
import { createSigners, rootSigner, sendFinal } from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import { REPO_ROOT } from '../shadebox-node.js';
import { serverProbes } from './cpu.js';
import { measureReadThroughput } from './read-throughput.js';
import type { TransferOptions, TransferResult } from './transfers.js';

export const NEAR_HELLO_WASM = join(REPO_ROOT, 'node_modules', 'near-hello', 'dist', 'main.wasm');
/** Distinct view requests: more than the read cache's 4,096 entries, so none is answered from it. */
export const VIEW_BODIES = 5000;
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

export interface ContractResults {
  calls: ContractCallResult | { error: string };
  views: (LoadResult & { contract: string; distinctRequests: number }) | { error: string };
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

interface CallFunctionAnswer {
  result?: number[];
  error?: string;
}

export function helloViewBody(contract: string, k: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 'bench',
    method: 'query',
    params: {
      request_type: 'call_function',
      finality: 'final',
      account_id: contract,
      method_name: 'hello',
      args_base64: Buffer.from(JSON.stringify({ name: `n${k}` })).toString('base64'),
    },
  });
}

/** Throws unless a `call_function` answer carries result bytes and no error. */
function checkCallFunction(result: unknown): void {
  const r = result as CallFunctionAnswer;
  if (r.error !== undefined || !Array.isArray(r.result)) {
    throw new Error(`call_function: ${JSON.stringify(r).slice(0, 200)}`);
  }
}

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
      const bodies = Array.from({ length: VIEW_BODIES }, (_, k) => helloViewBody(contract, k));
      const result = await measureReadThroughput(rpcUrl, pid, bodies, {
        concurrency: options.concurrency,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
        validate: checkCallFunction,
      });
      views = { ...result, contract, distinctRequests: bodies.length };
    } catch (error) {
      views = errorOf(error);
    }
    return { calls, views };
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
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
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_call',
        params: [{ to: contract, data: '0x' }, 'latest'],
      });
      const result = await measureReadThroughput(rpcUrl, pid, body, {
        concurrency: options.concurrency,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
        validate: (r) => {
          if (typeof r !== 'string' || r.length !== 66) throw new Error(`eth_call answered ${String(r)}`);
        },
      });
      views = { ...result, contract, distinctRequests: 1 };
    } catch (error) {
      views = errorOf(error);
    }
    return { calls, views };
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
}
