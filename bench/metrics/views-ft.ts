/**
 * `ft` phase: a token balance view over 1,000 holders, every request distinct (views-distinct.ts).
 *
 * Shadebox: the near-sdk-rs NEP-141 example token (near-examples/FT, near-sdk 4.1.1, from the shared corpus;
 * SHADEBOX_BENCH_FT_WASM names another) on `ft.<root>`, `new_default_meta` with itself as owner; each holder
 * `h<i>.<root>` registered with `storage_deposit` and sent 1,000,000 + i tokens with `ft_transfer` (30 actions a
 * transaction, to FINAL). The view: `ft_balance_of({"account_id"})` at `final`, each answer checked to be the
 * holder's balance as a JSON string.
 * anvil: the ERC-20 of bench/contracts/BenchToken.sol, compiled with solc-js, deployed by a dev account, which
 * sends 1,000,000 + i tokens to holder address i with `transfer` (mined a few blocks at a time). The view:
 * `eth_call balanceOf(holder)`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ONE_NEAR } from '@shadebox/primitives';
import type { AnvilServer } from '../anvil.js';
import { benchTokenInitCode, deploy, ethCallBody, receipt, word } from '../evm.js';
import { type LoadSettings, rawLoad, type ViewResult } from '../load.js';
import { deployContract, functionCall, readWasm, sendAllFinal } from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import { REPO_ROOT, type ShadeboxServer } from '../shadebox-node.js';
import { callFunctionBody, checkBytes, DISTINCT, jsonArg, KEYS } from './views-distinct.js';

export const FT_WASM =
  process.env.SHADEBOX_BENCH_FT_WASM ??
  join(REPO_ROOT, '..', 'shared', 'corpus', 'misc', 'near-examples-FT__fungible_token.wasm');

const balance = (i: number) => 1_000_000n + BigInt(i);
/** The NEP-145 minimum of the example token: 125 bytes of storage at 10^19 yoctoNEAR a byte. */
const STORAGE_DEPOSIT = ONE_NEAR / 800n;
const HOLDERS_PER_TX = 15;

export async function shadebox(server: ShadeboxServer, load: LoadSettings): Promise<ViewResult> {
  const root = server.account;
  if (!root) throw new Error('the ready line gave no genesis account key');
  if (!existsSync(FT_WASM)) throw new Error(`no token wasm at ${FT_WASM} (SHADEBOX_BENCH_FT_WASM)`);
  const client = new PooledRpcClient(server.rpcUrl, 4);
  try {
    const setupStart = performance.now();
    const ft = `ft.${root.accountId}`;
    const { signer } = await deployContract(client, root, 'ft', readWasm(FT_WASM), {
      deposit: 20n,
      init: { methodName: 'new_default_meta', args: { owner_id: ft, total_supply: String(10n ** 30n) } },
    });
    const holder = (i: number) => `h${i}.${root.accountId}`;
    const txs = [];
    for (let start = 0; start < KEYS; start += HOLDERS_PER_TX) {
      const actions = [];
      for (let i = start; i < Math.min(KEYS, start + HOLDERS_PER_TX); i++) {
        actions.push(functionCall('storage_deposit', { account_id: holder(i) }, STORAGE_DEPOSIT));
        actions.push(functionCall('ft_transfer', { receiver_id: holder(i), amount: String(balance(i)) }, 1n));
      }
      txs.push({ receiverId: ft, actions });
    }
    await sendAllFinal(client, signer, txs);
    const bodies: string[] = [];
    const expected: Buffer[] = [];
    for (let n = 0; n < DISTINCT; n++) {
      const i = n % KEYS;
      bodies.push(
        callFunctionBody(ft, 'ft_balance_of', jsonArg('account_id', holder(i), Math.floor(n / KEYS)), n),
      );
      expected.push(Buffer.from(JSON.stringify(String(balance(i)))));
    }
    const check = (r: unknown, n: number) => checkBytes(r, expected[n], `ft_balance_of(${holder(n % KEYS)})`);
    for (const n of [0, DISTINCT - 1]) check(await client.call('query', JSON.parse(bodies[n]).params), n);
    const setupMs = performance.now() - setupStart;
    const result = await rawLoad(server.rpcUrl, server.pid, bodies, load, check);
    return { ...result, contract: ft, distinctRequests: bodies.length, setupMs };
  } finally {
    await client.pool.destroy();
  }
}

/** Holder i's address: 0x…b0000 + i. */
const holderAddress = (i: number) => `0x${(0xb0000 + i).toString(16).padStart(40, '0')}`;

export async function anvil(server: AnvilServer, load: LoadSettings): Promise<ViewResult> {
  const client = new PooledRpcClient(server.rpcUrl, 1);
  try {
    const setupStart = performance.now();
    const [from] = await client.call<string[]>('eth_accounts', []);
    const token = await deploy(client, from, benchTokenInitCode() + word(10n ** 30n).slice(2));
    // The transfers mined a few blocks at a time (automine off meanwhile): one block each took up to 80 ms on a
    // chain the earlier phases made long.
    await client.call('evm_setAutomine', [false]);
    const hashes: string[] = [];
    for (let i = 0; i < KEYS; i++) {
      // transfer(address,uint256)
      const data = `0xa9059cbb${word(BigInt(holderAddress(i))).slice(2)}${word(balance(i)).slice(2)}`;
      hashes.push(await client.call<string>('eth_sendTransaction', [{ from, to: token, data }]));
    }
    for (
      let blocks = 0;
      (await client.call('eth_getTransactionReceipt', [hashes[KEYS - 1]])) === null;
      blocks++
    ) {
      if (blocks > 100) throw new Error('the token transfers were not mined');
      await client.call('evm_mine', []);
    }
    await client.call('evm_setAutomine', [true]);
    for (const hash of hashes) await receipt(client, hash);
    const bodies: string[] = [];
    const expected: string[] = [];
    for (let n = 0; n < DISTINCT; n++) {
      const i = n % KEYS;
      // balanceOf(address)
      bodies.push(ethCallBody(token, `0x70a08231${word(BigInt(holderAddress(i))).slice(2)}`, n));
      expected.push(word(balance(i)));
    }
    const check = (r: unknown, n: number) => {
      if (r !== expected[n]) throw new Error(`balanceOf(${holderAddress(n % KEYS)}) answered ${String(r)}`);
    };
    for (const n of [0, DISTINCT - 1]) check(await client.call('eth_call', JSON.parse(bodies[n]).params), n);
    const setupMs = performance.now() - setupStart;
    const result = await rawLoad(server.rpcUrl, server.pid, bodies, load, check);
    return { ...result, contract: token, distinctRequests: bodies.length, setupMs };
  } finally {
    await client.pool.destroy();
  }
}
