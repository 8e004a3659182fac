/**
 * anvil's side of a stored-value view: the slot-reading contract (bench/evm.ts), its slots set to `values`,
 * then `eth_call {to, data: <slot>}` over `distinct` requests (request n reads slot n mod the slot count), each
 * answer checked.
 */
import type { AnvilServer } from '../anvil.js';
import { deploySlotReader, ethCallBody, word } from '../evm.js';
import { type LoadSettings, rawLoad, type ViewResult } from '../load.js';
import { PooledRpcClient } from '../rpc.js';

export async function anvilSlotView(
  server: AnvilServer,
  load: LoadSettings,
  values: string[],
  distinct: number,
): Promise<ViewResult> {
  const client = new PooledRpcClient(server.rpcUrl, 1);
  try {
    const setupStart = performance.now();
    const [from] = await client.call<string[]>('eth_accounts', []);
    const reader = await deploySlotReader(client, server.rpcUrl, from, values);
    const bodies = Array.from({ length: distinct }, (_, n) =>
      ethCallBody(reader, word(n % values.length), n),
    );
    const setupMs = performance.now() - setupStart;
    const result = await rawLoad(server.rpcUrl, server.pid, bodies, load, (r, n) => {
      const slot = n % values.length;
      if (r !== values[slot]) throw new Error(`eth_call of slot ${slot} answered ${String(r)}`);
    });
    return { ...result, contract: reader, distinctRequests: bodies.length, setupMs };
  } finally {
    await client.pool.destroy();
  }
}
