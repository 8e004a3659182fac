/**
 * The self-signed state init of a universal account (NEP-655, protocol 87; nearcore 2.14
 * core/primitives/src/transaction.rs `state_init_bootstrap`, runtime/runtime/src/verifier.rs `is_bootstrap`,
 * `verify_and_charge_bootstrap_tx_ephemeral`).
 *
 * A `0u…` account that a transfer created holds a balance but no key. Its id is the hash of its state init and
 * the state init names its keys, so a transaction from the account to itself, signed by one of those keys and
 * carrying that state init, is authorized by the id alone. It is the one transaction such an account can send:
 *
 * - stateless shape: no gas-key nonce index (a bootstrap pays from the account's balance), signer = receiver, and
 *   a top-level UniversalStateInit (nested in a Delegate it authorizes nothing) whose bytes derive to the signer
 *   and decode to keys that include the signing key's handle;
 * - stateful: the signer exists, is still uninitialized, and has no access key under the signing key (the
 *   caller only comes here when the key lookup failed; any other shape stays `AccessKeyNotFound`);
 * - the nonce is strict whatever the transaction asks for: exactly `bootstrap_nonce + 1` (else `InvalidNonce`
 *   with the bootstrap nonce as `ak_nonce`), under the `height × 1e6` bound; balance and storage stake as for
 *   any transaction;
 * - the nonce is written back onto the account as its new bootstrap nonce, whether or not the init then
 *   succeeds: a failed init leaves the account uninitialized, and the same signed bytes must not be admissible
 *   again. The keys the init installs start above it (actions/universal-state-init.ts).
 */
import {
  type Action,
  encodePublicKeyHandle,
  publicKeyHandle,
  type SignedTransaction,
  type Transaction,
  tryDecodeUniversalStateInit,
  universalAccountIdOfRaw,
} from '@shadebox/primitives';
import type { TransactionCost } from '../config/fees.js';
import type { Account } from '../state/account.js';
import type { StateUpdate } from '../state/state-update.js';
import { insufficientStorageStake } from '../state/storage-usage.js';
import { setAccount } from '../state/typed-state.js';
import { invalidTx } from './errors.js';
import type { RuntimeParams } from './runtime-context.js';
import type { VerifiedTransaction } from './verify-transaction.js';
import { verifyNonce } from './verify-transaction.js';

type UniversalStateInitAction = Extract<Action, { type: 'UniversalStateInit' }>;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** `Transaction::state_init_bootstrap`: the state init that makes this a self-signed bootstrap, if any. */
export function stateInitBootstrap(tx: Transaction): UniversalStateInitAction | undefined {
  if (tx.nonceIndex !== undefined) return undefined;
  if (tx.signerId !== tx.receiverId) return undefined;
  const signing = encodePublicKeyHandle(publicKeyHandle(tx.publicKey));
  for (const action of tx.actions) {
    if (action.type !== 'UniversalStateInit') continue;
    if (universalAccountIdOfRaw(action.stateInit) !== tx.signerId) continue;
    const init = tryDecodeUniversalStateInit(action.stateInit);
    if (init?.accessKeys.some((h) => sameBytes(encodePublicKeyHandle(h), signing))) return action;
  }
  return undefined;
}

/** `is_bootstrap`: the feature is on, the signer is uninitialized and the transaction has the shape. */
export function isBootstrapTransaction(
  params: RuntimeParams,
  signer: Account,
  stx: SignedTransaction,
): boolean {
  return (
    params.universalAccounts === true &&
    signer.uninitialized !== undefined &&
    stateInitBootstrap(stx.transaction) !== undefined
  );
}

/** Charges a bootstrap transaction to the uninitialized signer and consumes its bootstrap nonce. */
export function verifyAndChargeBootstrapTransaction(
  params: RuntimeParams,
  state: StateUpdate,
  stx: SignedTransaction,
  signer: Account,
  cost: TransactionCost,
  blockHeight: bigint,
): VerifiedTransaction {
  const tx = stx.transaction;
  const bootstrapNonce = signer.uninitialized?.bootstrapNonce;
  if (bootstrapNonce === undefined) throw new Error('a bootstrap transaction needs an uninitialized signer');
  // Strict whatever the transaction asked for: a monotonic nonce could jump above the nonce the installed keys
  // start at, and the same bytes would then replay through a key.
  verifyNonce(tx.nonce, bootstrapNonce, blockHeight, 'Strict');
  if (signer.amount < cost.totalCost)
    throw invalidTx.notEnoughBalance(tx.signerId, signer.amount, cost.totalCost);
  const charged: Account = {
    ...signer,
    amount: signer.amount - cost.totalCost,
    uninitialized: { bootstrapNonce: tx.nonce },
  };
  const lacking = insufficientStorageStake(charged, params.storageAmountPerByte);
  if (lacking > 0n) throw invalidTx.lackBalanceForState(tx.signerId, lacking);
  setAccount(state, tx.signerId, charged);
  return { cost, signer: charged };
}
