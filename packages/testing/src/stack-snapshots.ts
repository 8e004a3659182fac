/**
 * Snapshots of both chains of a stack under one id: the NEAR node's `sandbox_snapshot` / `sandbox_revert`
 * (docs/dev-controls.md) and, when the stack runs one, the EVM chain's `evm_snapshot` / `evm_revert` (anvil).
 *
 * Both chains delete a snapshot when they revert to it, and every later one. Here a snapshot stays: after a
 * revert both chains are snapshotted again at once and the id points to the new pair, so a suite reverts to
 * the same point before each test. Snapshots taken after the one reverted to are gone (as on the chains).
 */
import type { RpcClient } from '@shadebox/near-client';
import { UnknownSnapshotError } from './errors.js';
import { EvmRpcError, evmRpc } from './evm-rpc.js';

interface Pair {
  near: string;
  evm: string | null;
}

export class StackSnapshots {
  readonly #near: RpcClient;
  readonly #evmUrl: string | null;
  /** In the order taken. */
  readonly #taken = new Map<string, Pair>();
  #counter = 0;

  constructor(near: RpcClient, evmUrl: string | null) {
    this.#near = near;
    this.#evmUrl = evmUrl;
  }

  /** Snapshots both chains; resolves with the id to revert to. */
  async snapshot(): Promise<string> {
    const id = String(++this.#counter);
    this.#taken.set(id, await this.#take());
    return id;
  }

  /**
   * Takes both chains back to snapshot `id` and snapshots them again there (the id stays valid); the snapshots
   * taken after it are deleted. Resolves with the NEAR head after the revert.
   */
  async revert(id: string): Promise<{ blockHeight: number; blockHash: string }> {
    const pair = this.#taken.get(id);
    if (pair === undefined) throw new UnknownSnapshotError(id);
    // The chains deleted the later snapshots on their side; forget them here first, so a failure below leaves
    // no id that points to a deleted snapshot.
    let later = false;
    for (const key of [...this.#taken.keys()]) {
      if (later || key === id) this.#taken.delete(key);
      if (key === id) later = true;
    }
    const head = await this.#near.call<{ block_height: number; block_hash: string }>('sandbox_revert', {
      snapshot_id: pair.near,
    });
    if (pair.evm !== null && this.#evmUrl !== null) {
      const reverted = await evmRpc<boolean>(this.#evmUrl, 'evm_revert', [pair.evm]);
      if (reverted !== true)
        throw new EvmRpcError('evm_revert', undefined, `snapshot ${pair.evm} was refused`);
    }
    this.#taken.set(id, await this.#take());
    return { blockHeight: head.block_height, blockHash: head.block_hash };
  }

  async #take(): Promise<Pair> {
    const [near, evm] = await Promise.all([
      this.#near.call<string>('sandbox_snapshot', []),
      this.#evmUrl === null ? null : evmRpc<string>(this.#evmUrl, 'evm_snapshot'),
    ]);
    return { near, evm };
  }
}
