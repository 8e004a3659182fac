/**
 * Helpers of the `test/rpc-*.test.ts` end-to-end tests: a started node, raw JSON-RPC over fetch (status, headers
 * and body kept), and signed transactions built with @shadebox/primitives.
 */

import { type RunningNode, type StartNodeOptions, silentLogger, startNode } from '@shadebox/node';
import {
  type Action,
  base58Decode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  parsePublicKey,
  type SignedTransaction,
  signTransaction,
  type Transaction,
} from '@shadebox/primitives';

export const NEAR = 10n ** 24n;
export const TGAS = 10n ** 12n;

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  json: any;
}

export interface TestNode {
  node: RunningNode;
  url: string;
  /** The genesis account (`test.near`) and its full-access key. */
  root: { accountId: string; key: KeyPair };
  stop(): Promise<void>;
}

export async function startTestNode(options: StartNodeOptions = {}): Promise<TestNode> {
  const node = await startNode({ memory: true, rpcPort: 0, log: silentLogger, ...options });
  const [account] = node.accounts;
  return {
    node,
    url: node.rpcUrl,
    root: { accountId: account.accountId, key: KeyPair.fromString(account.secretKey) },
    stop: () => node.stop(),
  };
}

/** POSTs `body` (a string is sent as is) to the RPC and keeps everything of the answer. */
export async function post(
  url: string,
  body: unknown,
  init: { contentType?: string | null; method?: string; path?: string } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  const contentType = init.contentType === undefined ? 'application/json' : init.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const response = await fetch(url + (init.path ?? '/'), {
    method: init.method ?? 'POST',
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json };
}

/** One JSON-RPC call: `{jsonrpc, id, method, params}`. */
export function rpc(url: string, method: string, params: unknown, id: unknown = 'dontcare') {
  return post(url, { jsonrpc: '2.0', id, method, params });
}

/** The `result` of a call that must succeed. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
export async function call(url: string, method: string, params: unknown): Promise<any> {
  const answer = await rpc(url, method, params);
  if (answer.status !== 200 || answer.json?.error !== undefined || answer.json?.result === undefined) {
    throw new Error(`${method} failed: HTTP ${answer.status} ${answer.text.slice(0, 2000)}`);
  }
  return answer.json.result;
}

export async function headHash(url: string): Promise<string> {
  return (await call(url, 'block', { finality: 'optimistic' })).header.hash;
}

export async function viewAccount(url: string, accountId: string) {
  return call(url, 'query', { request_type: 'view_account', finality: 'optimistic', account_id: accountId });
}

export async function keyNonce(url: string, accountId: string, publicKey: string): Promise<bigint> {
  const view = await call(url, 'query', {
    request_type: 'view_access_key',
    finality: 'optimistic',
    account_id: accountId,
    public_key: publicKey,
  });
  if (view.error) throw new Error(view.error);
  return BigInt(view.nonce);
}

export interface TxFields {
  signerId: string;
  key: KeyPair;
  receiverId: string;
  actions: Action[];
  /** Default: the access key's nonce + 1. */
  nonce?: bigint;
  /** Default: the head block. */
  blockHash?: Uint8Array;
  /** Sign with this key instead of `key` (the transaction still names `key`'s public key). */
  signWith?: KeyPair;
  /** Put this public key in the transaction instead of `key`'s. */
  publicKey?: string;
  version?: 0 | 1;
  priorityFee?: bigint;
}

export interface BuiltTx {
  transaction: Transaction;
  signed: SignedTransaction;
  base64: string;
  bytes: Uint8Array;
}

export async function buildTx(url: string, f: TxFields): Promise<BuiltTx> {
  const publicKey = f.publicKey ? parsePublicKey(f.publicKey) : f.key.publicKey;
  const nonce = f.nonce ?? (await keyNonce(url, f.signerId, f.key.publicKeyString)) + 1n;
  const blockHash = f.blockHash ?? base58Decode(await headHash(url));
  const transaction = createTransaction({
    signerId: f.signerId,
    publicKey,
    nonce,
    receiverId: f.receiverId,
    blockHash,
    actions: f.actions,
    version: f.version ?? 0,
    priorityFee: f.priorityFee ?? 0n,
  });
  const signed = signTransaction(transaction, f.signWith ?? f.key);
  const bytes = encodeSignedTransaction(signed);
  return { transaction, signed, base64: base64Encode(bytes), bytes };
}

/** Sends a transaction with `send_tx` and returns its result (throws on any error). */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
export async function sendTx(url: string, f: TxFields, waitUntil = 'FINAL'): Promise<any> {
  const tx = await buildTx(url, f);
  return call(url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: waitUntil });
}

/** Creates `accountId` (a sub-account of the signer) with `amount` and a new full-access key. */
export async function createAccount(
  url: string,
  funder: { accountId: string; key: KeyPair },
  accountId: string,
  amount: bigint,
): Promise<{ accountId: string; key: KeyPair; result: unknown }> {
  const key = KeyPair.fromRandom();
  const result = await sendTx(url, {
    signerId: funder.accountId,
    key: funder.key,
    receiverId: accountId,
    actions: [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: amount },
      {
        type: 'AddKey',
        publicKey: key.publicKey,
        accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
      },
    ],
  });
  return { accountId, key, result };
}

/** `JSON.stringify` with every object's keys sorted: how nearcore writes results and handler-error `cause` /
 * `data` (they pass through serde_json's BTreeMap-backed `Value`). */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

/** Fails the test after `ms` instead of hanging. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
