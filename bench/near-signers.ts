/**
 * NEAR signers for the transfer benchmark: `count` sub-accounts of the genesis account, each created and
 * funded in one transaction (CreateAccount + Transfer + AddKey of its own ed25519 key), and a signer that
 * builds, signs and encodes a Transfer with @shadebox/primitives.
 */
import {
  type Action,
  base58Decode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  fullAccessKey,
  KeyPair,
  ONE_NEAR,
  signTransaction,
} from '@shadebox/primitives';
import type { RpcClient } from './rpc.js';

export interface NearSigner {
  accountId: string;
  keyPair: KeyPair;
  /** The last nonce used. */
  nonce: bigint;
}

interface FinalOutcome {
  final_execution_status: string;
  status: { SuccessValue?: string; Failure?: unknown };
  transaction_outcome: { block_hash: string };
}

/** A recent block hash for new transactions, kept fresh from the outcomes the benchmark receives. */
export class RecentBlockHash {
  private hash: Uint8Array;
  constructor(initial: string) {
    this.hash = base58Decode(initial);
  }
  get(): Uint8Array {
    return this.hash;
  }
  set(base58: string): void {
    this.hash = base58Decode(base58);
  }
  static async fetch(client: RpcClient): Promise<RecentBlockHash> {
    const block = await client.call<{ header: { hash: string } }>('block', { finality: 'final' });
    return new RecentBlockHash(block.header.hash);
  }
}

export async function accessKeyNonce(
  client: RpcClient,
  accountId: string,
  keyPair: KeyPair,
): Promise<bigint> {
  const view = await client.call<{ nonce: number | string; error?: string }>('query', {
    request_type: 'view_access_key',
    finality: 'optimistic',
    account_id: accountId,
    public_key: keyPair.publicKeyString,
  });
  if (view.error) throw new Error(`view_access_key ${accountId}: ${view.error}`);
  return BigInt(view.nonce);
}

/** Signs `actions` from `signer` (bumping its nonce) and returns the base64 of the SignedTransaction. */
export function signActions(
  signer: NearSigner,
  receiverId: string,
  actions: Action[],
  blockHash: Uint8Array,
): string {
  signer.nonce += 1n;
  const tx = createTransaction({
    signerId: signer.accountId,
    publicKey: signer.keyPair.publicKey,
    nonce: signer.nonce,
    receiverId,
    blockHash,
    actions,
  });
  return base64Encode(encodeSignedTransaction(signTransaction(tx, signer.keyPair)));
}

/** `send_tx` waiting for `FINAL`; resolves with the outcome when it succeeded, throws otherwise. */
export async function sendFinal(client: RpcClient, signedTxBase64: string): Promise<FinalOutcome> {
  const outcome = await client.call<FinalOutcome>('send_tx', {
    signed_tx_base64: signedTxBase64,
    wait_until: 'FINAL',
  });
  if (outcome.status?.SuccessValue === undefined) {
    throw new Error(`transaction failed: ${JSON.stringify(outcome.status).slice(0, 300)}`);
  }
  if (outcome.final_execution_status !== 'FINAL') {
    throw new Error(`send_tx answered at ${outcome.final_execution_status}, not FINAL`);
  }
  return outcome;
}

/**
 * Creates `count` funded accounts `<prefix><i>.<root>` (`bench<i>.<root>` by default) with their own keys, in one burst of transactions from
 * the root account (consecutive nonces), and reads back each new key's nonce (nearcore gives a new key the
 * nonce (block height) * 10^6).
 */
export async function createSigners(
  client: RpcClient,
  root: { accountId: string; secretKey: string },
  count: number,
  blockHash: RecentBlockHash,
  /** Names are `<prefix><i>.<root>`: phases on the same node need different prefixes. */
  prefix = 'bench',
): Promise<NearSigner[]> {
  const rootKey = KeyPair.fromString(root.secretKey);
  const rootSigner: NearSigner = {
    accountId: root.accountId,
    keyPair: rootKey,
    nonce: await accessKeyNonce(client, root.accountId, rootKey),
  };
  const signers: NearSigner[] = Array.from({ length: count }, (_, i) => ({
    accountId: `${prefix}${i}.${root.accountId}`,
    keyPair: KeyPair.fromRandom('ed25519'),
    nonce: 0n,
  }));
  const hash = blockHash.get();
  const creations = signers.map((s) =>
    signActions(
      rootSigner,
      s.accountId,
      [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 100n * ONE_NEAR },
        { type: 'AddKey', publicKey: s.keyPair.publicKey, accessKey: fullAccessKey() },
      ],
      hash,
    ),
  );
  // Handed over one after another, in nonce order (concurrent requests could reach the pool out of order and
  // a later nonce could be included first), then awaited together until final.
  for (const tx of creations) await client.call('send_tx', { signed_tx_base64: tx, wait_until: 'NONE' });
  const outcomes = await Promise.all(
    creations.map(async (tx) => {
      const outcome = await client.call<FinalOutcome>('tx', { signed_tx_base64: tx, wait_until: 'FINAL' });
      if (outcome.status?.SuccessValue === undefined) {
        throw new Error(`account creation failed: ${JSON.stringify(outcome.status).slice(0, 300)}`);
      }
      return outcome;
    }),
  );
  blockHash.set(outcomes[outcomes.length - 1].transaction_outcome.block_hash);
  for (const s of signers) s.nonce = await accessKeyNonce(client, s.accountId, s.keyPair);
  return signers;
}
