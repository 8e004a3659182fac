/**
 * The anvil side's setup, shared by the metrics: receipts, deployments, the slot-reading contract (an `SLOAD`
 * of the slot named by the calldata) and the ERC-20 compiled from bench/contracts/ with solc-js.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { PooledRpcClient } from './rpc.js';
import { REPO_ROOT } from './shadebox-node.js';

/** A 32-byte word of `n`, as calldata and storage hold it. */
export const word = (n: number | bigint) => `0x${n.toString(16).padStart(64, '0')}`;

/** Waits for the receipt of `hash` (automine: it is there at once or after a few polls); throws on a revert. */
export async function receipt(client: PooledRpcClient, hash: string): Promise<{ contractAddress?: string }> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const r = await client.call<{ status: string; contractAddress?: string } | null>(
      'eth_getTransactionReceipt',
      [hash],
    );
    if (r) {
      if (r.status !== '0x1') throw new Error(`transaction ${hash} reverted`);
      return r;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`no receipt for ${hash}`);
}

/** Sends `tx` with `eth_sendTransaction` (anvil signs for its dev accounts) and waits for its receipt. */
export async function send(client: PooledRpcClient, tx: Record<string, string>) {
  return receipt(client, await client.call<string>('eth_sendTransaction', [tx]));
}

/** Deploys `initCode` from `from` and returns the contract's address. */
export async function deploy(client: PooledRpcClient, from: string, initCode: string): Promise<string> {
  const address = (await send(client, { from, data: initCode })).contractAddress;
  if (!address) throw new Error('the deployment receipt has no contractAddress');
  return address;
}

/** An `eth_call` body at `latest` with its own id (every body of a run distinct). */
export function ethCallBody(to: string, data: string, id: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_call', params: [{ to, data }, 'latest'] });
}

/**
 * PUSH1 0 CALLDATALOAD SLOAD PUSH1 0 MSTORE PUSH1 0x20 PUSH1 0 RETURN (12 bytes): returns the slot named by
 * calldata word 0.
 */
export const SLOAD_RUNTIME = '6000355460005260206000f3';
/** CODECOPY(0, 0x0c, 0x0c) RETURN(0, 0x0c), then the runtime. */
const SLOAD_INIT = `0x600c600c600039600c6000f3${SLOAD_RUNTIME}`;

/**
 * Deploys the slot-reading contract, sets `values.length` slots (slot k = `values[k]`, a 32-byte word) with
 * `anvil_setStorageAt` in JSON-RPC batches of 1,024, checks its code and the first and last slot with
 * `eth_call`, and returns its address.
 */
export async function deploySlotReader(
  client: PooledRpcClient,
  rpcUrl: string,
  from: string,
  values: readonly string[],
): Promise<string> {
  const reader = await deploy(client, from, SLOAD_INIT);
  const code = await client.call<string>('eth_getCode', [reader, 'latest']);
  if (code.toLowerCase() !== `0x${SLOAD_RUNTIME}`) throw new Error(`eth_getCode answered ${code}`);
  for (let start = 0; start < values.length; start += 1024) {
    const batch = values.slice(start, start + 1024).map((value, i) => ({
      jsonrpc: '2.0',
      id: start + i,
      method: 'anvil_setStorageAt',
      params: [reader, word(start + i), value],
    }));
    const res = await client.pool.request({
      path: new URL(rpcUrl).pathname,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    const answers = (await res.body.json()) as Array<{ result?: unknown }>;
    if (answers.length !== batch.length || answers.some((a) => a.result !== true)) {
      throw new Error(`anvil_setStorageAt: ${JSON.stringify(answers).slice(0, 200)}`);
    }
  }
  for (const k of [0, values.length - 1]) {
    const value = await client.call<string>('eth_call', [{ to: reader, data: word(k) }, 'latest']);
    if (value !== values[k]) throw new Error(`eth_call of slot ${k} answered ${value}`);
  }
  return reader;
}

/** The init code of bench/contracts/BenchToken.sol (solc-js from the test clients, optimizer on, 200 runs). */
export function benchTokenInitCode(): string {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
  const file = 'BenchToken.sol';
  const content = readFileSync(join(REPO_ROOT, 'bench', 'contracts', file), 'utf8');
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { [file]: { content } },
        settings: {
          optimizer: { enabled: true, runs: 200 },
          outputSelection: { '*': { '*': ['evm.bytecode.object'] } },
        },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const object = output.contracts?.[file]?.BenchToken?.evm.bytecode.object;
  if (!object) throw new Error('solc produced no BenchToken bytecode');
  return `0x${object}`;
}
