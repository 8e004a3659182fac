/**
 * The chain as the agent API uses it: account views, view calls and transactions signed with
 * @shadebox/primitives and sent with `send_tx` (`wait_until: "EXECUTED"`). A `KeyPool` signs for one account
 * with several full-access keys, each with its own nonce, so concurrent transactions do not collide; an
 * `InvalidNonce` refusal re-reads the nonce and retries.
 */
import {
  type Action,
  base58Decode,
  createTransaction,
  encodeSignedTransaction,
  type KeyPair,
  signTransaction,
} from '@shadebox/primitives';
import { ChainUnavailableError, type RpcClient, RpcError } from './rpc.js';

/** NEAR's storage price per byte (yoctoNEAR), unchanged since genesis. */
export const STORAGE_BYTE_COST = 10n ** 19n;

/** A transaction or view that ran and failed in the contract (panic, missing method, out of gas…). */
export class ContractError extends Error {
  constructor(
    message: string,
    readonly panic: boolean,
  ) {
    super(message);
    this.name = 'ContractError';
  }
}

export interface AccountView {
  amount: bigint;
  locked: bigint;
  storageUsage: bigint;
}

export async function viewAccount(rpc: RpcClient, accountId: string): Promise<AccountView | null> {
  try {
    const r = await rpc.call('query', {
      request_type: 'view_account',
      finality: 'optimistic',
      account_id: accountId,
    });
    return { amount: BigInt(r.amount), locked: BigInt(r.locked), storageUsage: BigInt(r.storage_usage) };
  } catch (e) {
    if (e instanceof RpcError && e.causeName === 'UNKNOWN_ACCOUNT') return null;
    throw e;
  }
}

/** What the account can spend: total minus the storage staking requirement (near-api-js's `available`). */
export function availableBalance(a: AccountView): bigint {
  const storage = a.storageUsage * STORAGE_BYTE_COST;
  const reserved = a.locked > storage ? a.locked : storage;
  const available = a.amount + a.locked - reserved;
  return available > 0n ? available : 0n;
}

export async function viewFunction(
  rpc: RpcClient,
  contractId: string,
  methodName: string,
  args: unknown,
): Promise<unknown> {
  let r: { result?: number[]; error?: string };
  try {
    r = await rpc.call('query', {
      request_type: 'call_function',
      finality: 'optimistic',
      account_id: contractId,
      method_name: methodName,
      args_base64: Buffer.from(JSON.stringify(args ?? {})).toString('base64'),
    });
  } catch (e) {
    if (
      e instanceof RpcError &&
      ['CONTRACT_EXECUTION_ERROR', 'UNKNOWN_ACCOUNT', 'NO_CONTRACT_CODE'].includes(e.causeName ?? '')
    ) {
      throw contractErrorFromText(
        String(e.error?.data ?? e.error?.cause?.info?.vm_error ?? e.message),
        e.causeName,
      );
    }
    throw e;
  }
  if (typeof r?.error === 'string') throw contractErrorFromText(r.error);
  return decodeResult(Buffer.from(r.result ?? []));
}

function contractErrorFromText(text: string, causeName?: string): ContractError {
  const m = /Smart contract panicked: (.*?)(?:"|\\n|\n|$)/s.exec(text);
  if (m) return new ContractError(m[1], true);
  const g = /GuestPanic \{ panic_msg: \\?"(.*?)\\?" \}/s.exec(text);
  if (g) return new ContractError(g[1], true);
  if (causeName === 'UNKNOWN_ACCOUNT') return new ContractError('the contract account does not exist', false);
  if (causeName === 'NO_CONTRACT_CODE')
    return new ContractError('the account has no contract deployed', false);
  return new ContractError(text.slice(0, 1000), false);
}

/** A function result: JSON when it parses, else the raw string; empty → null. */
export function decodeResult(bytes: Buffer): unknown {
  if (bytes.length === 0) return null;
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: execution outcomes are JSON inspected field by field.
export type Outcome = any;

/** The transaction's result, or a ContractError for a failed execution. */
export function outcomeResult(outcome: Outcome): unknown {
  const status = outcome?.status;
  if (status && typeof status === 'object' && 'SuccessValue' in status) {
    return decodeResult(Buffer.from(String(status.SuccessValue ?? ''), 'base64'));
  }
  if (status && typeof status === 'object' && 'Failure' in status) {
    const text = JSON.stringify(status.Failure);
    const execution = status.Failure?.ActionError?.kind?.FunctionCallError?.ExecutionError;
    if (typeof execution === 'string') {
      const m = /^Smart contract panicked: (.*)$/s.exec(execution);
      throw new ContractError(m ? m[1] : execution, m !== null);
    }
    throw new ContractError(text.slice(0, 1000), false);
  }
  throw new ContractError(`unexpected transaction status ${JSON.stringify(status)?.slice(0, 200)}`, false);
}

interface PoolKey {
  keyPair: KeyPair;
  nonce?: bigint;
  busy: boolean;
}

export class KeyPool {
  readonly #keys: PoolKey[];
  readonly #waiters: Array<(key: PoolKey) => void> = [];
  #blockHash?: { hash: Uint8Array; at: number };

  constructor(
    readonly rpc: RpcClient,
    readonly accountId: string,
    keys: KeyPair[],
  ) {
    this.#keys = keys.map((keyPair) => ({ keyPair, busy: false }));
  }

  get size(): number {
    return this.#keys.length;
  }

  addKeys(keys: KeyPair[]): void {
    for (const keyPair of keys) this.#release({ keyPair, busy: true });
  }

  #acquire(): Promise<PoolKey> {
    const free = this.#keys.find((k) => !k.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #release(key: PoolKey): void {
    if (!this.#keys.includes(key)) this.#keys.push(key);
    const next = this.#waiters.shift();
    if (next) next(key);
    else key.busy = false;
  }

  async #recentBlockHash(): Promise<Uint8Array> {
    const now = Date.now();
    if (this.#blockHash && now - this.#blockHash.at < 5_000) return this.#blockHash.hash;
    const block = await this.rpc.call('block', { finality: 'final' });
    const hash = base58Decode(block.header.hash);
    this.#blockHash = { hash, at: now };
    return hash;
  }

  async #readNonce(key: PoolKey): Promise<bigint> {
    const r = await this.rpc.call('query', {
      request_type: 'view_access_key',
      finality: 'optimistic',
      account_id: this.accountId,
      public_key: key.keyPair.publicKeyString,
    });
    return BigInt(r.nonce);
  }

  /** Signs and sends one transaction with a free key; resolves with the EXECUTED outcome. */
  async send(receiverId: string, actions: Action[], timeoutMs?: number): Promise<Outcome> {
    const key = await this.#acquire();
    try {
      for (let attempt = 0; ; attempt++) {
        if (key.nonce === undefined) key.nonce = await this.#readNonce(key);
        const nonce = key.nonce + 1n;
        const tx = createTransaction({
          signerId: this.accountId,
          publicKey: key.keyPair.publicKey,
          nonce,
          receiverId,
          blockHash: await this.#recentBlockHash(),
          actions,
        });
        const signed = encodeSignedTransaction(signTransaction(tx, key.keyPair));
        try {
          key.nonce = nonce;
          return await this.rpc.call(
            'send_tx',
            { signed_tx_base64: Buffer.from(signed).toString('base64'), wait_until: 'EXECUTED' },
            timeoutMs ?? this.rpc.timeoutMs * 3,
          );
        } catch (e) {
          if (e instanceof RpcError && attempt < 5) {
            const text = JSON.stringify(e.error);
            const m = /"InvalidNonce":\{[^}]*"ak_nonce":"?(\d+)/.exec(text);
            if (m) {
              key.nonce = BigInt(m[1]);
              continue;
            }
            if (text.includes('InvalidNonce')) {
              key.nonce = undefined;
              continue;
            }
            if (text.includes('Expired')) {
              this.#blockHash = undefined;
              continue;
            }
          }
          // Whether the transaction landed is unknown: read the nonce again next time.
          if (e instanceof ChainUnavailableError || !(e instanceof RpcError)) key.nonce = undefined;
          throw e;
        }
      }
    } finally {
      this.#release(key);
    }
  }
}
