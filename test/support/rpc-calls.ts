/**
 * Typed JSON-RPC calls of the end-to-end tests, through @shadebox/near-client: a JSON-RPC error throws
 * near-client's `RpcError` (nearcore's error object in `.error`). State and block views read with them.
 */
import assert from 'node:assert/strict';
import { viewAccessKey as accessKeyView, viewAccount as accountView, RpcClient } from '@shadebox/near-client';
import { type Json, rpcRaw } from './raw-rpc.js';

const clients = new Map<string, RpcClient>();

/** The near-client of the node at `url` (one per URL). */
export function clientFor(url: string): RpcClient {
  let client = clients.get(url);
  if (!client) {
    client = new RpcClient(url, { timeoutMs: 60_000, idPrefix: 'test' });
    clients.set(url, client);
  }
  return client;
}

/** The `result` of a call that must succeed. */
export function rpc(url: string, method: string, params: unknown): Promise<Json> {
  return clientFor(url).call(method, params);
}

export type BlockRef = { finality: 'optimistic' | 'near-final' | 'final' } | { block_id: number | string };

export interface AccountState {
  amount: bigint;
  locked: bigint;
  storageUsage: number;
}

/** `view_account`, or undefined when the account does not exist (UNKNOWN_ACCOUNT). */
export async function viewAccount(
  url: string,
  accountId: string,
  at: BlockRef = { finality: 'final' },
): Promise<AccountState | undefined> {
  const view = await accountView(
    clientFor(url),
    accountId,
    'block_id' in at ? { blockId: at.block_id } : { finality: at.finality },
  );
  if (!view) return undefined;
  return { amount: view.amount, locked: view.locked, storageUsage: Number(view.storageUsage) };
}

/** The `view_account` result as nearcore writes it (amounts as strings, `storage_usage`, `code_hash` …), at
 * `finality: "optimistic"`. */
export function viewAccountJson(url: string, accountId: string): Promise<Json> {
  return rpc(url, 'query', { request_type: 'view_account', finality: 'optimistic', account_id: accountId });
}

export async function balanceOf(url: string, accountId: string, at?: BlockRef): Promise<bigint> {
  const account = await viewAccount(url, accountId, at);
  assert.ok(account, `${accountId} should exist`);
  return account.amount;
}

/** `view_access_key` as nearcore answers it, or undefined when the key does not exist. */
export async function viewAccessKey(
  url: string,
  accountId: string,
  publicKey: string,
  at: BlockRef = { finality: 'final' },
): Promise<Json | undefined> {
  const { result, error } = await rpcRaw(url, 'query', {
    request_type: 'view_access_key',
    account_id: accountId,
    public_key: publicKey,
    ...at,
  });
  if (error) {
    assert.equal(error.cause?.name, 'UNKNOWN_ACCESS_KEY', JSON.stringify(error));
    return undefined;
  }
  // nearcore answers a missing key with a result carrying `error` (kept for backward compatibility).
  if (typeof result.error === 'string') {
    assert.equal(result.error, `access key ${publicKey} does not exist while viewing`);
    return undefined;
  }
  return result;
}

/** The nonce of an access key at `finality: "optimistic"`. */
export async function keyNonce(url: string, accountId: string, publicKey: string): Promise<bigint> {
  return (await accessKeyView(clientFor(url), accountId, publicKey)).nonce;
}

export async function block(url: string, ref: BlockRef): Promise<Json> {
  return rpc(url, 'block', ref);
}

export async function headHash(url: string): Promise<string> {
  return (await block(url, { finality: 'optimistic' })).header.hash;
}

export async function blockHeight(url: string, blockHash: string): Promise<number> {
  return (await block(url, { block_id: blockHash })).header.height;
}

/** The gas price the chunks of block `height` were applied with: the previous block's `gas_price`. */
export async function applyGasPrice(url: string, height: number): Promise<bigint> {
  return BigInt((await block(url, { block_id: height - 1 })).header.gas_price);
}
