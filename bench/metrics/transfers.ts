/**
 * Metric 2: value transfers per second, each counted only once its result is final, from `concurrency`
 * signers that each keep one transfer in flight.
 *
 * Shadebox: each signer signs a Transfer of 1 yoctoNEAR to its neighbour and calls `send_tx` with
 * `wait_until: "FINAL"` (the block holding the transaction and the blocks of its receipts are final).
 * anvil (automine): each of its prefunded dev accounts sends 1 wei to its neighbour with `eth_sendTransaction`
 * (anvil signs) and then reads `eth_getTransactionReceipt` until the receipt exists.
 */
import { type LoadResult, runClosedLoop } from '../load.js';
import { createSigners, sendFinal } from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import { serverProbes } from './cpu.js';

export interface TransferOptions {
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

export interface TransferResult extends LoadResult {
  /** Time to create and fund the signer accounts (Shadebox only). */
  setupMs?: number;
  /** Blocks the server made per second during the window, and transfers per block. */
  blocksPerSecond: number;
  transfersPerBlock: number;
}

function withBlocks(result: LoadResult, extra: { setupMs?: number } = {}): TransferResult {
  const blocks = result.deltas.blocks ?? Number.NaN;
  return {
    ...result,
    ...extra,
    blocksPerSecond: blocks / (result.durationMs / 1000),
    transfersPerBlock: result.completed / blocks,
  };
}

export async function measureShadeboxTransfers(
  rpcUrl: string,
  pid: number,
  root: { accountId: string; secretKey: string },
  options: TransferOptions,
): Promise<TransferResult> {
  const client = new PooledRpcClient(rpcUrl, options.concurrency);
  const side = new PooledRpcClient(rpcUrl, 1);
  try {
    const setupStart = performance.now();
    const signers = await createSigners(client, root, options.concurrency);
    const setupMs = performance.now() - setupStart;

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
        const receiver = signers[(i + 1) % signers.length].accountId;
        await sendFinal(signers[i], receiver, [{ type: 'Transfer', deposit: 1n }]);
      },
    });
    return withBlocks(result, { setupMs });
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
}

interface EthReceipt {
  status: string;
}

export async function measureAnvilTransfers(
  rpcUrl: string,
  pid: number,
  options: TransferOptions,
): Promise<TransferResult> {
  const client = new PooledRpcClient(rpcUrl, options.concurrency);
  const side = new PooledRpcClient(rpcUrl, 1);
  try {
    const accounts = await client.call<string[]>('eth_accounts', []);
    if (accounts.length < options.concurrency) {
      throw new Error(`anvil has ${accounts.length} dev accounts, need ${options.concurrency}`);
    }
    const result = await runClosedLoop({
      ...options,
      drainTimeoutMs: 15_000,
      probes: {
        ...serverProbes(pid),
        blocks: async () => Number(await side.call<string>('eth_blockNumber', [])),
      },
      operation: async (i) => {
        const from = accounts[i];
        const to = accounts[(i + 1) % options.concurrency];
        const hash = await client.call<string>('eth_sendTransaction', [{ from, to, value: '0x1' }]);
        for (let attempt = 0; ; attempt++) {
          const receipt = await client.call<EthReceipt | null>('eth_getTransactionReceipt', [hash]);
          if (receipt) {
            if (receipt.status !== '0x1') throw new Error(`transfer ${hash} reverted`);
            return;
          }
          if (attempt > 1000) throw new Error(`no receipt for ${hash}`);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      },
    });
    return withBlocks(result);
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
}
