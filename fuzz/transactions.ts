/**
 * Valid signed transactions mixed into the fuzz, so the chain moves while it is fuzzed: transfers from the
 * genesis account to a few implicit accounts (created by their first transfer), to itself, and function calls
 * to the agent contract (which fail or succeed; either way they burn gas). Nonces are the key's own, counted
 * up from the access key's; the block hash is refreshed every few transactions.
 */
import {
  type Action,
  base58Decode,
  base58Encode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  hexEncode,
  KeyPair,
  sha256,
  signTransaction,
  TGAS,
  transactionHash,
} from '@shadebox/primitives';
import type { Random } from './random.js';

export interface SignedTxCase {
  base64: string;
  hash: string;
  signerId: string;
  receiverId: string;
}

export type RpcCall = (method: string, params: unknown) => Promise<Record<string, unknown>>;

export class TransactionFactory {
  private nonce = 0n;
  private blockHash: Uint8Array | undefined;
  private sinceRefresh = 0;
  readonly receivers: string[];
  private readonly key: KeyPair;

  constructor(
    private readonly rpc: RpcCall,
    readonly signerId: string,
    secretKey: string,
    private readonly agentContractId: string,
    seed: number,
  ) {
    this.key = KeyPair.fromString(secretKey);
    this.receivers = Array.from({ length: 8 }, (_, i) => hexEncode(sha256(Buffer.from(`fuzz ${seed} ${i}`))));
  }

  async init(): Promise<void> {
    const key = (await this.rpc('query', {
      request_type: 'view_access_key',
      finality: 'optimistic',
      account_id: this.signerId,
      public_key: this.key.publicKeyString,
    })) as { nonce: number };
    this.nonce = BigInt(key.nonce);
    await this.refresh();
  }

  private async refresh(): Promise<void> {
    const block = (await this.rpc('block', { finality: 'final' })) as { header: { hash: string } };
    this.blockHash = base58Decode(block.header.hash);
    this.sinceRefresh = 0;
  }

  /** The next transaction, its contents drawn from `r`. */
  async next(r: Random): Promise<SignedTxCase> {
    if (!this.blockHash || ++this.sinceRefresh > 20) await this.refresh();
    const receiverId = r.chance(0.2)
      ? this.agentContractId
      : r.chance(0.15)
        ? this.signerId
        : r.pick(this.receivers);
    const actions: Action[] =
      receiverId === this.agentContractId
        ? [
            {
              type: 'FunctionCall',
              methodName: r.pick(['get_owner', 'get_agents', 'no_such_method', 'register_agent']),
              args: Buffer.from(r.chance(0.5) ? '{}' : 'not json'),
              gas: BigInt(r.range(1, 50)) * TGAS,
              deposit: r.chance(0.3) ? 1n : 0n,
            },
          ]
        : [{ type: 'Transfer', deposit: BigInt(r.range(1, 1000)) * 10n ** 18n }];
    this.nonce += 1n;
    const tx = createTransaction({
      signerId: this.signerId,
      publicKey: this.key.publicKey,
      nonce: this.nonce,
      receiverId,
      blockHash: this.blockHash!,
      actions,
    });
    const signed = signTransaction(tx, this.key);
    return {
      base64: base64Encode(encodeSignedTransaction(signed)),
      hash: base58Encode(transactionHash(tx)),
      signerId: this.signerId,
      receiverId,
    };
  }
}
