/**
 * Checks of a signed transaction, in nearcore's order (runtime/runtime/src/verifier.rs): first what needs no
 * state (`validateTransaction`), then against the signer's account and key, charging it
 * (`verifyAndChargeTransaction`). The RPC runs both on the head state before accepting a transaction; the
 * chunk runs both again when it includes it.
 */
import {
  type AccessKey,
  type FunctionCallPermission,
  gasKeyInfoOf,
  isValidAccountId,
  type NonceMode,
  publicKeyToString,
  type SignedTransaction,
  verifySignature,
} from '@shadebox/primitives';
import { type TransactionCost, transactionCost } from '../config/fees.js';
import type { Account } from '../state/account.js';
import type { StateUpdate } from '../state/state-update.js';
import { insufficientStorageStake } from '../state/storage-usage.js';
import { getAccessKey, getAccount, setAccessKey, setAccount } from '../state/typed-state.js';
import { type InvalidTxError, invalidTx } from './errors.js';
import type { RuntimeParams } from './runtime-context.js';
import { withSignatureVerificationCost } from './signature-verification-cost.js';
import { ActionsValidationError, validateActions } from './validate-actions.js';
import {
  isBootstrapTransaction,
  verifyAndChargeBootstrapTransaction,
} from './verify-bootstrap-transaction.js';
import { verifyAndChargeGasKeyTransaction } from './verify-gas-key-transaction.js';

/** Multiplier of the block height giving the largest nonce a transaction may use. */
export const ACCESS_KEY_NONCE_RANGE_MULTIPLIER = 1_000_000n;

/** Checks that need no state. Returns the transaction's cost at `gasPrice`. */
export function validateTransaction(
  params: RuntimeParams,
  stx: SignedTransaction,
  hash: Uint8Array,
  size: number,
  gasPrice: bigint,
  options: { signatureVerified?: boolean } = {},
): TransactionCost {
  const tx = stx.transaction;
  // nearcore refuses invalid account ids while decoding; we name them with their InvalidTxError instead.
  if (!isValidAccountId(tx.signerId)) throw invalidTx.invalidSignerId(tx.signerId);
  if (!isValidAccountId(tx.receiverId)) throw invalidTx.invalidReceiverId(tx.receiverId);
  try {
    validateActions(params.limits, tx.actions, tx.receiverId);
  } catch (e) {
    if (e instanceof ActionsValidationError) throw invalidTx.actionsValidation(e.json);
    throw e;
  }
  // TransactionV1 (gas-key nonces, strict nonces) is enabled at protocol 85 (`GasKeys`, `StrictNonce`).
  if (size > params.limits.maxTransactionSize)
    throw invalidTx.sizeExceeded(size, params.limits.maxTransactionSize);
  // A signature's validity depends on the transaction's bytes alone: one checked on arrival needs no recheck.
  if (!options.signatureVerified && !verifySignature(hash, stx.signature, tx.publicKey)) {
    throw invalidTx.invalidSignature();
  }
  let cost: TransactionCost;
  try {
    cost = transactionCost(params, tx, gasPrice);
    cost = withSignatureVerificationCost(cost, params.mlDsa65VerificationCost, tx, gasPrice);
  } catch {
    throw invalidTx.costOverflow();
  }
  // nearcore computes the cost in u64 gas and u128 balances (`tx_cost`); every term is non-negative, so an
  // overflow anywhere shows in the totals.
  if (cost.gasBurnt > U64_MAX || cost.gasRemaining > U64_MAX || cost.totalCost > U128_MAX)
    throw invalidTx.costOverflow();
  return cost;
}

const U64_MAX = 2n ** 64n - 1n;
const U128_MAX = 2n ** 128n - 1n;

export interface VerifiedTransaction {
  cost: TransactionCost;
  signer: Account;
  /** The signing key after the charge; none for a universal account's self-signed state init, which has no key
   * yet (verify-bootstrap-transaction.ts). */
  accessKey?: AccessKey;
  /** nearcore's `TxVerdict::DepositFailed` (gas-key transactions in a chunk only): the gas key paid for the
   * conversion and the nonce advanced, but the deposits could not be paid; the transaction makes no receipt
   * and its outcome fails with this error. */
  depositFailed?: InvalidTxError;
}

/**
 * Checks the transaction against the signer's state and charges it: the cost leaves the balance (and the
 * allowance of a function-call key), the key's nonce becomes the transaction's. Writes go to `state`'s pending
 * layer; the caller commits or rolls back.
 */
/** nearcore's `verify_function_call_permission`: one FunctionCall without deposit, to the key's receiver and
 * (when the key names methods) one of its methods. */
export function verifyFunctionCallPermission(
  permission: FunctionCallPermission,
  stx: SignedTransaction,
): void {
  const tx = stx.transaction;
  const [action] = tx.actions;
  if (tx.actions.length !== 1 || action.type !== 'FunctionCall')
    throw invalidTx.accessKey('RequiresFullAccess');
  if (action.deposit > 0n) throw invalidTx.accessKey('DepositWithFunctionCall');
  if (tx.receiverId !== permission.receiverId) {
    throw invalidTx.accessKey({
      ReceiverMismatch: { tx_receiver: tx.receiverId, ak_receiver: permission.receiverId },
    });
  }
  if (permission.methodNames.length > 0 && !permission.methodNames.includes(action.methodName)) {
    throw invalidTx.accessKey({ MethodNameMismatch: { method_name: action.methodName } });
  }
}

/** nearcore's `verify_nonce`: Monotonic wants more than the key's nonce, Strict exactly one more; both stay
 * under `height * 1e6`. */
export function verifyNonce(txNonce: bigint, current: bigint, blockHeight: bigint, mode: NonceMode): void {
  if (mode === 'Strict' ? txNonce !== current + 1n : txNonce <= current) {
    throw invalidTx.invalidNonce(txNonce, current);
  }
  const upperBound = blockHeight * ACCESS_KEY_NONCE_RANGE_MULTIPLIER;
  if (txNonce >= upperBound) throw invalidTx.nonceTooLarge(txNonce, upperBound);
}

export function verifyAndChargeTransaction(
  params: RuntimeParams,
  state: StateUpdate,
  stx: SignedTransaction,
  cost: TransactionCost,
  blockHeight: bigint,
  /** A chunk including the transaction (not the RPC admitting it): a gas-key transaction whose deposits the
   * account cannot pay is included with the `DepositFailed` verdict instead of refused. */
  options: { inChunk?: boolean } = {},
): VerifiedTransaction {
  const tx = stx.transaction;
  const signer = getAccount(state, tx.signerId);
  if (!signer) throw invalidTx.signerDoesNotExist(tx.signerId);
  const accessKey = getAccessKey(state, tx.signerId, tx.publicKey);
  if (!accessKey) {
    // NEP-655: an uninitialized universal account signs its own state init with a key it commits to.
    if (isBootstrapTransaction(params, signer, stx))
      return verifyAndChargeBootstrapTransaction(params, state, stx, signer, cost, blockHeight);
    throw invalidTx.accessKey({
      AccessKeyNotFound: { account_id: tx.signerId, public_key: publicKeyToString(tx.publicKey) },
    });
  }
  if (tx.nonceIndex !== undefined) {
    return verifyAndChargeGasKeyTransaction(
      params,
      state,
      stx,
      signer,
      accessKey,
      cost,
      blockHeight,
      options,
    );
  }
  // A gas key signs only with a gas-key nonce.
  const gasKey = gasKeyInfoOf(accessKey.permission);
  if (gasKey) throw invalidTx.invalidNonceIndex(null, gasKey.numNonces);
  verifyNonce(tx.nonce, accessKey.nonce, blockHeight, tx.nonceMode ?? 'Monotonic');

  if (signer.amount < cost.totalCost)
    throw invalidTx.notEnoughBalance(tx.signerId, signer.amount, cost.totalCost);
  const charged: Account = { ...signer, amount: signer.amount - cost.totalCost };
  const newKey: AccessKey = { nonce: tx.nonce, permission: accessKey.permission };

  const permission = accessKey.permission;
  if (permission.kind === 'FunctionCall' && permission.allowance !== null) {
    if (permission.allowance < cost.totalCost) {
      throw invalidTx.accessKey({
        NotEnoughAllowance: {
          account_id: tx.signerId,
          public_key: publicKeyToString(tx.publicKey),
          allowance: permission.allowance.toString(),
          cost: cost.totalCost.toString(),
        },
      });
    }
    newKey.permission = { ...permission, allowance: permission.allowance - cost.totalCost };
  }

  // nearcore (`verify_and_charge_tx_ephemeral`) checks the storage stake before the key's permission.
  const lacking = insufficientStorageStake(charged, params.storageAmountPerByte);
  if (lacking > 0n) throw invalidTx.lackBalanceForState(tx.signerId, lacking);

  if (permission.kind === 'FunctionCall') verifyFunctionCallPermission(permission, stx);

  setAccount(state, tx.signerId, charged);
  setAccessKey(state, tx.signerId, tx.publicKey, newKey);
  return { cost, signer: charged, accessKey: newKey };
}
