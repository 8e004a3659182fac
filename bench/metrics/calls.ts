/**
 * `contracts` phase, calls: contract calls per second, each counted once final, from `concurrency` signers
 * that each keep one call in flight.
 *
 * Shadebox: near-hello 0.5.1 on `hello.<root>`; each signer sends `setValue({"value": <distinct>})` with
 * 30 Tgas through `send_tx` `wait_until: "FINAL"`, counted when the outcome is a SuccessValue; afterwards
 * `getValue` must answer one of the values. anvil: a hand-assembled storage contract (below); each dev account
 * sends `eth_sendTransaction {to, data: <32-byte word>}` and reads the receipt until it is there (status 0x1).
 */
import { TGAS } from '@shadebox/primitives';
import type { AnvilServer } from '../anvil.js';
import { deploy, receipt, send, word } from '../evm.js';
import { type LoadSettings, runClosedLoop } from '../load.js';
import {
  createSigners,
  deployContract,
  functionCall,
  NEAR_HELLO_WASM,
  readWasm,
  sendFinal,
  viewString,
} from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import type { ShadeboxServer } from '../shadebox-node.js';
import { type WriteResult, withBlocks, writeProbes } from './transfers.js';

/**
 * Stores calldata word 0 in slot 0 when there is calldata, else returns slot 0:
 * CALLDATASIZE ISZERO PUSH1 0x0c JUMPI | PUSH1 0 CALLDATALOAD PUSH1 0 SSTORE STOP |
 * JUMPDEST PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 0x20 PUSH1 0 RETURN (24 bytes).
 */
const STORAGE_RUNTIME = '3615600c57600035600055005b60005460005260206000f3';
/** CODECOPY(0, 0x0c, 0x18) RETURN(0, 0x18), then the runtime. */
const STORAGE_INIT = `0x6018600c60003960186000f3${STORAGE_RUNTIME}`;

export async function shadebox(server: ShadeboxServer, load: LoadSettings): Promise<WriteResult> {
  const root = server.account;
  if (!root) throw new Error('the ready line gave no genesis account key');
  const client = new PooledRpcClient(server.rpcUrl, load.concurrency);
  const side = new PooledRpcClient(server.rpcUrl, 1);
  try {
    const setupStart = performance.now();
    const { accountId: hello } = await deployContract(client, root, 'hello', readWasm(NEAR_HELLO_WASM));
    const greeting = await viewString(client, hello, 'hello', { name: 'bench' });
    if (!greeting.includes('bench')) throw new Error(`hello answered ${greeting}`);
    const signers = await createSigners(client, root, load.concurrency, 'caller');
    const setupMs = performance.now() - setupStart;
    const sequence = new Array<number>(signers.length).fill(0);
    const result = await runClosedLoop({
      ...load,
      drainTimeoutMs: 15_000,
      probes: writeProbes(server.pid, side, true),
      // The signer's pool reads the key's nonce again when a send failed without an answer from the chain.
      operation: async (i) => {
        const value = `v${i}-${sequence[i]++}`;
        await sendFinal(signers[i], hello, [functionCall('setValue', { value }, 0n, 30n * TGAS)]);
      },
    });
    // The calls did write: the contract holds one of the values.
    const stored = await viewString(client, hello, 'getValue', {});
    if (!/^"?v\d+-\d+"?$/.test(stored)) throw new Error(`getValue answered ${stored}`);
    return withBlocks(result, setupMs);
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
}

export async function anvil(server: AnvilServer, load: LoadSettings): Promise<WriteResult> {
  const client = new PooledRpcClient(server.rpcUrl, load.concurrency);
  const side = new PooledRpcClient(server.rpcUrl, 1);
  try {
    const setupStart = performance.now();
    const accounts = await client.call<string[]>('eth_accounts', []);
    if (accounts.length < load.concurrency) {
      throw new Error(`anvil has ${accounts.length} dev accounts, need ${load.concurrency}`);
    }
    const contract = await deploy(client, accounts[0], STORAGE_INIT);
    const probe = word(0xbe0c);
    await send(client, { from: accounts[0], to: contract, data: probe });
    const readBack = await client.call<string>('eth_call', [{ to: contract, data: '0x' }, 'latest']);
    if (readBack !== probe) throw new Error(`eth_call read ${readBack}, stored ${probe}`);
    const setupMs = performance.now() - setupStart;
    let sent = 0;
    const result = await runClosedLoop({
      ...load,
      drainTimeoutMs: 15_000,
      probes: writeProbes(server.pid, side, false),
      operation: async (i) => {
        const data = word(++sent);
        await receipt(
          client,
          await client.call<string>('eth_sendTransaction', [{ from: accounts[i], to: contract, data }]),
        );
      },
    });
    return withBlocks(result, setupMs);
  } finally {
    await client.pool.destroy();
    await side.pool.destroy();
  }
}
