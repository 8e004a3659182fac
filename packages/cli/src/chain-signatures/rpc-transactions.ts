/**
 * Sending transactions through a node's JSON-RPC (any node: this never imports the node): an account with
 * its key, its access-key nonce tracked locally, `send_tx` waiting for the outcome, and the failure text when
 * the transaction failed.
 */
import {
  type Action,
  base58Decode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  signTransaction,
} from '@shadebox/primitives';

export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly error: {
      name?: string;
      cause?: { name?: string; info?: unknown };
      data?: unknown;
      message?: string;
    },
  ) {
    super(`${method}: ${JSON.stringify(error)}`);
  }
}

export async function rpcCall<T>(rpcUrl: string, method: string, params: unknown): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'shadebox', method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: RpcError['error'] };
  if (body.error) throw new RpcError(method, body.error);
  return body.result as T;
}

/** Whether `accountId` exists at the optimistic head. */
export async function accountExists(rpcUrl: string, accountId: string): Promise<boolean> {
  try {
    await rpcCall(rpcUrl, 'query', {
      request_type: 'view_account',
      finality: 'optimistic',
      account_id: accountId,
    });
    return true;
  } catch (e) {
    if (e instanceof RpcError && e.error.cause?.name === 'UNKNOWN_ACCOUNT') return false;
    throw e;
  }
}

/** A view call's result parsed as JSON. */
export async function viewFunction<T>(
  rpcUrl: string,
  accountId: string,
  methodName: string,
  args: unknown,
): Promise<T> {
  const r = await rpcCall<{ result?: number[]; error?: string }>(rpcUrl, 'query', {
    request_type: 'call_function',
    finality: 'optimistic',
    account_id: accountId,
    method_name: methodName,
    args_base64: Buffer.from(JSON.stringify(args)).toString('base64'),
  });
  if (r.error !== undefined) throw new Error(`${accountId}.${methodName}: ${r.error}`);
  return JSON.parse(Buffer.from(r.result ?? []).toString('utf8')) as T;
}

interface Outcome {
  status: { SuccessValue?: string; Failure?: unknown };
  transaction_outcome: { block_hash: string };
}

export class RpcAccount {
  private nonce: bigint | undefined;
  readonly keyPair: KeyPair;

  constructor(
    readonly rpcUrl: string,
    readonly accountId: string,
    secretKey: string,
  ) {
    this.keyPair = KeyPair.fromString(secretKey);
  }

  private async nextNonce(): Promise<bigint> {
    if (this.nonce === undefined) {
      const key = await rpcCall<{ nonce: number | string }>(this.rpcUrl, 'query', {
        request_type: 'view_access_key',
        finality: 'optimistic',
        account_id: this.accountId,
        public_key: this.keyPair.publicKeyString,
      });
      this.nonce = BigInt(key.nonce);
    }
    this.nonce += 1n;
    return this.nonce;
  }

  /** Signs and sends `actions` to `receiverId`, waits until executed, and throws if the transaction failed. */
  async send(receiverId: string, actions: Action[]): Promise<Outcome> {
    const block = await rpcCall<{ header: { hash: string } }>(this.rpcUrl, 'block', { finality: 'final' });
    const tx = createTransaction({
      signerId: this.accountId,
      publicKey: this.keyPair.publicKey,
      nonce: await this.nextNonce(),
      receiverId,
      blockHash: base58Decode(block.header.hash),
      actions,
    });
    const signed = base64Encode(encodeSignedTransaction(signTransaction(tx, this.keyPair)));
    let outcome: Outcome;
    try {
      outcome = await rpcCall<Outcome>(this.rpcUrl, 'send_tx', {
        signed_tx_base64: signed,
        wait_until: 'EXECUTED',
      });
    } catch (e) {
      this.nonce = undefined; // read it again: the nonce may or may not have been used
      throw e;
    }
    if (outcome.status.SuccessValue === undefined) {
      throw new Error(`${receiverId}: transaction failed: ${JSON.stringify(outcome.status.Failure)}`);
    }
    return outcome;
  }
}
