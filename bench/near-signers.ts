/**
 * NEAR signers for the benchmarks: `count` sub-accounts of the genesis account, each created and funded in
 * one transaction (CreateAccount + Transfer + AddKey of its own ed25519 key), each signing through its own
 * one-key `KeyPool` of @shadebox/near-client (nonces, block hash, signing and sending are near-client's).
 */
import {
  KeyPool,
  type Outcome,
  type RpcClient,
  type SignedTx,
  sendTransaction,
  txStatus,
} from '@shadebox/near-client';
import { type Action, fullAccessKey, KeyPair, ONE_NEAR } from '@shadebox/primitives';

/** One account signing with one key. */
export type NearSigner = KeyPool;

/** The genesis account's signer. */
export function rootSigner(client: RpcClient, root: { accountId: string; secretKey: string }): NearSigner {
  return new KeyPool(client, root.accountId, [KeyPair.fromString(root.secretKey)]);
}

/** Throws unless `outcome` succeeded and is `FINAL`. */
export function checkFinal(outcome: Outcome, what = 'transaction'): Outcome {
  if (outcome.status?.SuccessValue === undefined) {
    throw new Error(`${what} failed: ${JSON.stringify(outcome.status).slice(0, 300)}`);
  }
  if (outcome.final_execution_status !== 'FINAL') {
    throw new Error(`send_tx answered at ${outcome.final_execution_status}, not FINAL`);
  }
  return outcome;
}

/**
 * Signs `actions` from `signer`, sends them with `send_tx` waiting for `FINAL` and resolves with the outcome
 * when it succeeded (throws otherwise). The outcome's block hash becomes the signer's recent block hash.
 */
export async function sendFinal(signer: NearSigner, receiverId: string, actions: Action[]): Promise<Outcome> {
  const outcome = checkFinal(await signer.send(receiverId, actions, { waitUntil: 'FINAL' }));
  signer.useBlockHash(outcome.transaction_outcome.block_hash);
  return outcome;
}

/**
 * Creates `count` funded accounts `<prefix><i>.<root>` (`bench<i>.<root>` by default) with their own keys, in
 * one burst of transactions from the root account (consecutive nonces), awaited until final. Each new
 * signer reads its key's nonce on first use (nearcore gives a new key the nonce (block height) * 10^6).
 */
export async function createSigners(
  client: RpcClient,
  root: { accountId: string; secretKey: string },
  count: number,
  /** Names are `<prefix><i>.<root>`: phases on the same node need different prefixes. */
  prefix = 'bench',
): Promise<NearSigner[]> {
  const funder = rootSigner(client, root);
  const accounts = Array.from({ length: count }, (_, i) => ({
    accountId: `${prefix}${i}.${root.accountId}`,
    keyPair: KeyPair.fromRandom('ed25519'),
  }));
  const creations: SignedTx[] = [];
  for (const a of accounts) {
    creations.push(
      await funder.sign(a.accountId, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 100n * ONE_NEAR },
        { type: 'AddKey', publicKey: a.keyPair.publicKey, accessKey: fullAccessKey() },
      ]),
    );
  }
  // Handed over one after another, in nonce order (concurrent requests could reach the pool out of order and
  // a later nonce could be included first), then awaited together until final.
  for (const tx of creations) await sendTransaction(client, tx.base64, 'NONE');
  const outcomes = await Promise.all(
    creations.map(async (tx) => {
      const outcome = await txStatus(client, {
        txHash: tx.hash,
        senderAccountId: root.accountId,
        waitUntil: 'FINAL',
      });
      if (outcome.status?.SuccessValue === undefined) {
        throw new Error(`account creation failed: ${JSON.stringify(outcome.status).slice(0, 300)}`);
      }
      return outcome;
    }),
  );
  const blockHash = outcomes[outcomes.length - 1].transaction_outcome.block_hash;
  return accounts.map((a) => {
    const signer = new KeyPool(client, a.accountId, [a.keyPair]);
    signer.useBlockHash(blockHash);
    return signer;
  });
}
