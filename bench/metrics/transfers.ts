/**
 * `transfers` phase: value transfers per second, each counted only once its result is final, from `concurrency`
 * signers that each keep one transfer in flight.
 *
 * Shadebox: each signer signs a Transfer of 1 yoctoNEAR to its neighbour and calls `send_tx` with
 * `wait_until: "FINAL"` (the block holding the transaction and the blocks of its receipts are final).
 * anvil (automine): each of its prefunded dev accounts sends 1 wei to its neighbour with `eth_sendTransaction`
 * (anvil signs) and then reads `eth_getTransactionReceipt` until the receipt exists.
 */
import type { AnvilServer } from '../anvil.js';
import { receipt } from '../evm.js';
import { type LoadResult, type LoadSettings, runClosedLoop } from '../load.js';
import { createSigners, sendFinal } from '../near-signers.js';
import { serverProbes } from '../proc.js';
import { PooledRpcClient } from '../rpc.js';
import type { ShadeboxServer } from '../shadebox-node.js';

/** A write metric's result: the load, and the blocks made meanwhile. */
export interface WriteResult extends LoadResult {
  /** Creating the signers or deploying the contract, ms (not in the rate). */
  setupMs?: number;
  /** Blocks the server made per second during the window, and writes per block. */
  blocksPerSecond: number;
  perBlock: number;
}

export function withBlocks(result: LoadResult, setupMs?: number): WriteResult {
  const blocks = result.deltas.blocks ?? Number.NaN;
  return {
    ...result,
    setupMs,
    blocksPerSecond: blocks / (result.durationMs / 1000),
    perBlock: result.completed / blocks,
  };
}

/** Probes of a write window: the server's CPU and its chain height. */
export function writeProbes(pid: number, side: PooledRpcClient, near: boolean) {
  return {
    ...serverProbes(pid),
    blocks: async () =>
      near
        ? (await side.call<{ header: { height: number } }>('block', { finality: 'optimistic' })).header.height
        : Number(await side.call<string>('eth_blockNumber', [])),
  };
}

export async function shadebox(server: ShadeboxServer, options: LoadSettings): Promise<WriteResult> {
  const root = server.account;
  if (!root) throw new Error('the ready line gave no genesis account key');
  const client = new PooledRpcClient(server.rpcUrl, options.concurrency);
  const side = new PooledRpcClient(server.rpcUrl, 1);
  try {
    const setupStart = performance.now();
    const signers = await createSigners(client, root, options.concurrency);
    const setupMs = performance.now() - setupStart;

    const result = await runClosedLoop({
      ...options,
      drainTimeoutMs: 15_000,
      probes: writeProbes(server.pid, side, true),
      // The signer's pool reads the key's nonce again when a send failed without an answer from the chain.
      operation: async (i) => {
        const receiver = signers[(i + 1) % signers.length].accountId;
        await sendFinal(signers[i], receiver, [{ type: 'Transfer', deposit: 1n }]);
      },
    });
    return withBlocks(result, setupMs);
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
}

export async function anvil(server: AnvilServer, options: LoadSettings): Promise<WriteResult> {
  const client = new PooledRpcClient(server.rpcUrl, options.concurrency);
  const side = new PooledRpcClient(server.rpcUrl, 1);
  try {
    const accounts = await client.call<string[]>('eth_accounts', []);
    if (accounts.length < options.concurrency) {
      throw new Error(`anvil has ${accounts.length} dev accounts, need ${options.concurrency}`);
    }
    const result = await runClosedLoop({
      ...options,
      drainTimeoutMs: 15_000,
      probes: writeProbes(server.pid, side, false),
      operation: async (i) => {
        const to = accounts[(i + 1) % options.concurrency];
        await receipt(
          client,
          await client.call<string>('eth_sendTransaction', [{ from: accounts[i], to, value: '0x1' }]),
        );
      },
    });
    return withBlocks(result);
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
}
