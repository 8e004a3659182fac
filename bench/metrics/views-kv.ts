/**
 * `contracts` phase, views: a minimal storage-reading contract on each side (views-kv-workload.ts), `get` of the
 * entry named by the request over 32,768 distinct requests, each answer checked.
 *
 * Shadebox: the WAT contract on `kv.<root>`, filled by `fill` calls from the signers; `query` `call_function`
 * `get(<4-byte key>)` at `finality: "final"`. anvil: the slot-reading contract, its slots set with
 * `anvil_setStorageAt`; `eth_call {to, data: <slot>}`.
 */
import { TGAS } from '@shadebox/primitives';
import type { AnvilServer } from '../anvil.js';
import { type LoadSettings, rawLoad, type ViewResult } from '../load.js';
import { createSigners, deployContract, sendFinal } from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import type { ShadeboxServer } from '../shadebox-node.js';
import { anvilSlotView } from './anvil-slot-view.js';
import {
  checkKvAnswer,
  entryKey,
  FILL_BATCH,
  fillArgs,
  kvContractWasm,
  kvViewBody,
  slotValue,
  VIEW_KEYS,
} from './views-kv-workload.js';

export async function shadebox(server: ShadeboxServer, load: LoadSettings): Promise<ViewResult> {
  const root = server.account;
  if (!root) throw new Error('the ready line gave no genesis account key');
  const client = new PooledRpcClient(server.rpcUrl, load.concurrency);
  try {
    const setupStart = performance.now();
    // Storage staking: about 76 bytes per entry (4 + 32 + 40), 2.5 MB for 32,768 entries.
    const { accountId: kv } = await deployContract(client, root, 'kv', await kvContractWasm(), {
      deposit: 50n,
    });
    const signers = await createSigners(client, root, load.concurrency, 'filler');
    const batches = Math.ceil(VIEW_KEYS / FILL_BATCH);
    await Promise.all(
      signers.map(async (signer, s) => {
        for (let b = s; b < batches; b += signers.length) {
          const from = b * FILL_BATCH;
          const args = fillArgs(from, Math.min(FILL_BATCH, VIEW_KEYS - from));
          await sendFinal(signer, kv, [
            { type: 'FunctionCall', methodName: 'fill', args, gas: 300n * TGAS, deposit: 0n },
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
    const bodies = Array.from({ length: VIEW_KEYS }, (_, k) => kvViewBody(kv, k));
    const setupMs = performance.now() - setupStart;
    const result = await rawLoad(server.rpcUrl, server.pid, bodies, load, checkKvAnswer);
    return { ...result, contract: kv, distinctRequests: bodies.length, setupMs };
  } finally {
    await client.pool.destroy();
  }
}

export function anvil(server: AnvilServer, load: LoadSettings): Promise<ViewResult> {
  return anvilSlotView(
    server,
    load,
    Array.from({ length: VIEW_KEYS }, (_, k) => slotValue(k)),
    VIEW_KEYS,
  );
}
