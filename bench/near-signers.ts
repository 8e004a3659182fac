/**
 * The NEAR side's setup, shared by the metrics: signers (sub-accounts of the genesis account, each with its own
 * ed25519 key in a one-key `KeyPool` of @shadebox/near-client), contract accounts, batches of transactions sent
 * in nonce order and awaited until final, and views.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  KeyPool,
  type Outcome,
  type RpcClient,
  type SignedTx,
  sendTransaction,
  txStatus,
  viewFunction,
} from '@shadebox/near-client';
import { type Action, fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import { REPO_ROOT } from './shadebox-node.js';

/** near-hello 0.5.1 (AssemblyScript), from the test clients (test-clients/). */
export const NEAR_HELLO_WASM = join(REPO_ROOT, 'node_modules', 'near-hello', 'dist', 'main.wasm');

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
  const outcomes = await sendAllFinal(
    client,
    funder,
    accounts.map((a) => ({
      receiverId: a.accountId,
      actions: [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 100n * ONE_NEAR },
        { type: 'AddKey', publicKey: a.keyPair.publicKey, accessKey: fullAccessKey() },
      ],
    })),
  );
  const blockHash = outcomes[outcomes.length - 1].transaction_outcome.block_hash;
  return accounts.map((a) => {
    const signer = new KeyPool(client, a.accountId, [a.keyPair]);
    signer.useBlockHash(blockHash);
    return signer;
  });
}

/**
 * Signs every transaction of `txs` from `signer` (consecutive nonces), hands them over one after another in
 * nonce order (concurrent requests could reach the pool out of order and a later nonce be included first), then
 * awaits them together until final; throws unless every one succeeded.
 */
export async function sendAllFinal(
  client: RpcClient,
  signer: NearSigner,
  txs: { receiverId: string; actions: Action[] }[],
): Promise<Outcome[]> {
  const signed: SignedTx[] = [];
  for (const tx of txs) signed.push(await signer.sign(tx.receiverId, tx.actions));
  for (const tx of signed) await sendTransaction(client, tx.base64, 'NONE');
  const deadline = performance.now() + 300_000;
  return Promise.all(
    signed.map(async (tx) => {
      let outcome: Outcome | undefined;
      while (!outcome) {
        try {
          outcome = await txStatus(client, {
            txHash: tx.hash,
            senderAccountId: signer.accountId,
            waitUntil: 'FINAL',
          });
        } catch (error) {
          // The node answers a wait longer than its own limit (10 s, as nearcore) with a timeout: ask again.
          if (!/timed out/i.test(String((error as Error).message)) || performance.now() > deadline)
            throw error;
        }
      }
      if (outcome.status?.SuccessValue === undefined) {
        throw new Error(`transaction failed: ${JSON.stringify(outcome.status).slice(0, 300)}`);
      }
      return outcome;
    }),
  );
}

/**
 * Creates `<name>.<root>` holding `code` (and `deposit` NEAR for its storage), calls `init` when given, and
 * returns the account with a signer of its own full-access key.
 */
export async function deployContract(
  client: RpcClient,
  root: { accountId: string; secretKey: string },
  name: string,
  code: Uint8Array,
  options: { deposit?: bigint; init?: { methodName: string; args: object } } = {},
): Promise<{ accountId: string; signer: NearSigner }> {
  const accountId = `${name}.${root.accountId}`;
  const key = KeyPair.fromRandom('ed25519');
  const init = options.init;
  await sendFinal(rootSigner(client, root), accountId, [
    { type: 'CreateAccount' },
    { type: 'Transfer', deposit: (options.deposit ?? 10n) * ONE_NEAR },
    { type: 'AddKey', publicKey: key.publicKey, accessKey: fullAccessKey() },
    { type: 'DeployContract', code },
    ...(init ? [functionCall(init.methodName, init.args, 0n, 100n * TGAS)] : []),
  ]);
  const signer = new KeyPool(client, accountId, [key]);
  return { accountId, signer };
}

/** A FunctionCall action with JSON arguments. */
export function functionCall(methodName: string, args: object, deposit = 0n, gas = 10n * TGAS): Action {
  return {
    type: 'FunctionCall',
    methodName,
    args: new TextEncoder().encode(JSON.stringify(args)),
    gas,
    deposit,
  };
}

export const readWasm = (path: string) => new Uint8Array(readFileSync(path));

/** A view call at `optimistic` whose result must be a string. */
export async function viewString(client: RpcClient, contract: string, method: string, args: unknown) {
  const value = await viewFunction(client, contract, method, args, { finality: 'optimistic' });
  if (typeof value !== 'string') throw new Error(`${contract}.${method} answered ${JSON.stringify(value)}`);
  return value;
}
