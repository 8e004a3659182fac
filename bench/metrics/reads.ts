/**
 * `read` phase: one account read, the same request over and over (what a wallet or an agent polling a balance
 * sends). Shadebox: `query` `view_account` of the genesis account at `finality: "final"`; anvil:
 * `eth_getBalance(<dev account>, "latest")`. Every answer must carry a `result`.
 */
import type { AnvilServer } from '../anvil.js';
import { type LoadResult, type LoadSettings, rawLoad } from '../load.js';
import { PooledRpcClient } from '../rpc.js';
import type { ShadeboxServer } from '../shadebox-node.js';

export async function shadebox(server: ShadeboxServer, load: LoadSettings): Promise<LoadResult> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 'bench',
    method: 'query',
    params: {
      request_type: 'view_account',
      finality: 'final',
      account_id: server.account?.accountId ?? 'test.near',
    },
  });
  return rawLoad(server.rpcUrl, server.pid, [body], load);
}

export async function anvil(server: AnvilServer, load: LoadSettings): Promise<LoadResult> {
  const client = new PooledRpcClient(server.rpcUrl, 1);
  const [address] = await client.call<string[]>('eth_accounts', []);
  await client.close();
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_getBalance',
    params: [address, 'latest'],
  });
  return rawLoad(server.rpcUrl, server.pid, [body], load);
}
