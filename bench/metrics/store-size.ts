/**
 * Shadebox only: on-disk size of an archival LMDB home per 10,000 transfers.
 *
 * A fresh chain on a new home (`--home <tmp> --archival`): 32 funded signers are created (near-signers.ts),
 * the size of the data directory is read, then the signers send `transfers` transfers of 1 yoctoNEAR to their
 * neighbour (32 in flight, `send_tx` with `wait_until: "FINAL"`, automine), the size is read again, and the
 * growth is divided by the number of transfers. The growth also holds the blocks automine made for them
 * (reported beside): an archival node keeps every block, chunk, outcome and state version.
 *
 * Sizes: `fileBytes` sums the files' lengths, `allocatedBytes` the disk blocks they really take (stat
 * blocks × 512, which is smaller when LMDB's map is sparse), and `lmdbUsedBytes` LMDB's own count:
 * (last page number + 1) × page size, the high-water mark of the data file (pages freed by copy-on-write are
 * reused before it grows). `lmdbTreeBytes` counts only the pages the B-tree holds now (branch + leaf +
 * overflow pages). The LMDB figures come from a read-only `getStats()` of the directory.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { createSigners, sendFinal } from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import { type Launcher, startShadebox } from '../shadebox-node.js';

export interface HomeSize {
  /** Sum of the lengths of the files under the home. */
  fileBytes: number;
  /** Sum of the disk blocks the files take (stat blocks × 512). */
  allocatedBytes: number;
  /** LMDB data file high-water mark: (last page number + 1) × page size; NaN when LMDB could not be read. */
  lmdbUsedBytes: number;
  /** Pages in LMDB's B-tree (branch + leaf + overflow) × page size. */
  lmdbTreeBytes: number;
  lmdbEntries: number;
}

export interface StoreSizeResult {
  transfers: number;
  /** Blocks made while the transfers ran. */
  blocks: number;
  elapsedMs: number;
  before: HomeSize;
  after: HomeSize;
  /** Growth of lmdbUsedBytes per transfer, and per 10,000 transfers. */
  bytesPerTransfer: number;
  bytesPer10kTransfers: number;
  /** Growth of fileBytes per 10,000 transfers. */
  fileBytesPer10kTransfers: number;
  archival: true;
}

interface LmdbStats {
  pageSize: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
  entryCount: number;
  lastPageNumber: number;
}

/** Sizes of the home directory `home` (its LMDB store is `home/data`). */
export function homeSize(home: string): HomeSize {
  let fileBytes = 0;
  let allocatedBytes = 0;
  for (const entry of readdirSync(home, { recursive: true }) as string[]) {
    const st = statSync(join(home, entry));
    if (!st.isFile()) continue;
    fileBytes += st.size;
    allocatedBytes += st.blocks * 512;
  }
  let stats: LmdbStats | undefined;
  try {
    const db = open({ path: join(home, 'data'), readOnly: true });
    try {
      stats = db.getStats() as LmdbStats;
    } finally {
      void db.close();
    }
  } catch {
    stats = undefined;
  }
  const pages = (n: number | undefined) => (stats && n !== undefined ? n * stats.pageSize : Number.NaN);
  return {
    fileBytes,
    allocatedBytes,
    lmdbUsedBytes: pages(stats ? stats.lastPageNumber + 1 : undefined),
    lmdbTreeBytes: pages(
      stats ? stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages : undefined,
    ),
    lmdbEntries: stats?.entryCount ?? Number.NaN,
  };
}

/** A new empty directory for a node home under the system temp dir. */
export function tempHome(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `shadebox-bench-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export async function measureStoreSize(
  launcher: Launcher,
  options: { transfers: number; signers: number; timeoutMs: number },
): Promise<StoreSizeResult> {
  const home = tempHome('store');
  const server = await startShadebox({ launcher, home: home.path, archival: true });
  const client = new PooledRpcClient(server.rpcUrl, options.signers);
  try {
    if (!server.account) throw new Error('the ready line gave no genesis account key');
    const signers = await createSigners(client, server.account, options.signers);
    const height = async () =>
      (await client.call<{ header: { height: number } }>('block', { finality: 'final' })).header.height;
    const before = homeSize(home.path);
    const h0 = await height();
    const t0 = performance.now();
    let sent = 0;
    await Promise.all(
      signers.map(async (signer, i) => {
        const receiver = signers[(i + 1) % signers.length].accountId;
        while (sent < options.transfers) {
          if (performance.now() - t0 > options.timeoutMs) {
            throw new Error(`only ${sent} of ${options.transfers} transfers in ${options.timeoutMs} ms`);
          }
          sent++;
          await sendFinal(signer, receiver, [{ type: 'Transfer', deposit: 1n }]);
        }
      }),
    );
    const elapsedMs = performance.now() - t0;
    const blocks = (await height()) - h0;
    const after = homeSize(home.path);
    const perTransfer = (after.lmdbUsedBytes - before.lmdbUsedBytes) / sent;
    return {
      transfers: sent,
      blocks,
      elapsedMs: Math.round(elapsedMs),
      before,
      after,
      bytesPerTransfer: perTransfer,
      bytesPer10kTransfers: perTransfer * 10_000,
      fileBytesPer10kTransfers: ((after.fileBytes - before.fileBytes) / sent) * 10_000,
      archival: true,
    };
  } finally {
    await client.pool.destroy();
    await server.stop();
    home.remove();
  }
}
