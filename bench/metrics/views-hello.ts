/**
 * `hello` phase: a stored-value view over 1,000 keys, every request distinct (views-distinct.ts).
 *
 * Shadebox: near-hello 0.5.1 (AssemblyScript, near-sdk-as) on `hellokv.<root>`, 1,000 keys `k<i>` stored with
 * `setKeyValue({"key","value"})` (25 calls a transaction, to FINAL). The view: `getValueByKey({"key"})` at
 * `final`, each answer checked to be the stored value as a JSON string.
 * anvil: the slot-reading contract of bench/evm.ts (an `SLOAD` of the slot named by the calldata), 1,000 slots
 * set with `anvil_setStorageAt`. The view: `eth_call {to, data: <slot>}`.
 */
import type { AnvilServer } from '../anvil.js';
import { word } from '../evm.js';
import { type LoadSettings, rawLoad, type ViewResult } from '../load.js';
import { deployContract, functionCall, NEAR_HELLO_WASM, readWasm, sendAllFinal } from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import type { ShadeboxServer } from '../shadebox-node.js';
import { anvilSlotView } from './anvil-slot-view.js';
import { callFunctionBody, checkBytes, DISTINCT, jsonArg, KEYS } from './views-distinct.js';

const CALLS_PER_TX = 25;
const value = (i: number) => `value-${i}-${(i * 2654435761) >>> 0}`;

export async function shadebox(server: ShadeboxServer, load: LoadSettings): Promise<ViewResult> {
  const root = server.account;
  if (!root) throw new Error('the ready line gave no genesis account key');
  const client = new PooledRpcClient(server.rpcUrl, 4);
  try {
    const setupStart = performance.now();
    const { accountId: hello, signer } = await deployContract(
      client,
      root,
      'hellokv',
      readWasm(NEAR_HELLO_WASM),
    );
    const txs = [];
    for (let start = 0; start < KEYS; start += CALLS_PER_TX) {
      const actions = [];
      for (let i = start; i < Math.min(KEYS, start + CALLS_PER_TX); i++) {
        actions.push(functionCall('setKeyValue', { key: `k${i}`, value: value(i) }));
      }
      txs.push({ receiverId: hello, actions });
    }
    await sendAllFinal(client, signer, txs);
    const bodies: string[] = [];
    const expected: Buffer[] = [];
    for (let n = 0; n < DISTINCT; n++) {
      const i = n % KEYS;
      bodies.push(callFunctionBody(hello, 'getValueByKey', jsonArg('key', `k${i}`, Math.floor(n / KEYS)), n));
      expected.push(Buffer.from(JSON.stringify(value(i))));
    }
    const check = (r: unknown, n: number) => checkBytes(r, expected[n], `getValueByKey(k${n % KEYS})`);
    for (const n of [0, DISTINCT - 1]) check(await client.call('query', JSON.parse(bodies[n]).params), n);
    const setupMs = performance.now() - setupStart;
    const result = await rawLoad(server.rpcUrl, server.pid, bodies, load, check);
    return { ...result, contract: hello, distinctRequests: bodies.length, setupMs };
  } finally {
    await client.pool.destroy();
  }
}

export function anvil(server: AnvilServer, load: LoadSettings): Promise<ViewResult> {
  return anvilSlotView(
    server,
    load,
    Array.from({ length: KEYS }, (_, i) => word(0x5e7000000n + BigInt(i))),
    DISTINCT,
  );
}
