/**
 * A transaction signed with a gas-key nonce (TransactionV1 with `TransactionNonce::GasKeyNonce`), checked and
 * charged as nearcore's `verify_and_charge_gas_key_tx_ephemeral` (runtime/runtime/src/verifier.rs): the key
 * must be a gas key (else AccessKeyNotFound), the nonce index below its `num_nonces` (InvalidNonceIndex), the
 * nonce checked against that index's own nonce; the gas (burnt now and bought for the receipt) comes out of
 * the gas key's balance (NotEnoughGasKeyBalance), the deposits out of the account (NotEnoughBalanceForDeposit,
 * also when the account would then lack the balance for its storage); a GasKeyFunctionCall key restricts
 * the transaction as a function-call key does. The key's allowance is not used: its balance is the budget.
 *
 * A transaction whose gas the key can pay but whose deposits the account cannot gets nearcore's
 * `DepositFailed` verdict: the RPC refuses it with that error (as nearcore's `validate_tx`), and a chunk
 * including it (the account spent its balance in between) charges the key only what converting it burns,
 * advances the nonce, leaves the account as it is and makes no receipt; its outcome fails with the error.
 */
import {
  type AccessKey,
  functionCallPermissionOf,
  gasKeyInfoOf,
  publicKeyToString,
  type SignedTransaction,
} from '@shadebox/primitives';
import type { TransactionCost } from '../config/fees.js';
import type { Account } from '../state/account.js';
import type { StateUpdate } from '../state/state-update.js';
import { insufficientStorageStake } from '../state/storage-usage.js';
import { getGasKeyNonce, setAccessKey, setAccount, setGasKeyNonce } from '../state/typed-state.js';
import { type InvalidTxError, invalidTx } from './errors.js';
import type { RuntimeParams } from './runtime-context.js';
import { type VerifiedTransaction, verifyFunctionCallPermission, verifyNonce } from './verify-transaction.js';

export function verifyAndChargeGasKeyTransaction(
  params: RuntimeParams,
  state: StateUpdate,
  stx: SignedTransaction,
  signer: Account,
  accessKey: AccessKey,
  cost: TransactionCost,
  blockHeight: bigint,
  options: { inChunk?: boolean } = {},
): VerifiedTransaction {
  const tx = stx.transaction;
  const index = tx.nonceIndex!;
  const info = gasKeyInfoOf(accessKey.permission);
  if (!info) {
    throw invalidTx.accessKey({
      AccessKeyNotFound: { account_id: tx.signerId, public_key: publicKeyToString(tx.publicKey) },
    });
  }
  if (index >= info.numNonces) throw invalidTx.invalidNonceIndex(index, info.numNonces);
  const current = getGasKeyNonce(state, tx.signerId, tx.publicKey, index);
  if (current === undefined) throw invalidTx.invalidNonceIndex(index, info.numNonces);
  verifyNonce(tx.nonce, current, blockHeight, tx.nonceMode ?? 'Monotonic');

  if (info.balance < cost.gasCost)
    throw invalidTx.notEnoughGasKeyBalance(tx.signerId, info.balance, cost.gasCost);
  const permission = functionCallPermissionOf(accessKey.permission);
  if (permission) verifyFunctionCallPermission(permission, stx);

  const depositFailure = depositFailureOf(params, tx.signerId, signer, cost);
  const p = accessKey.permission as Extract<AccessKey['permission'], { gasKeyInfo: unknown }>;
  if (depositFailure) {
    if (!options.inChunk) throw depositFailure;
    const keyAfterConversion: AccessKey = {
      nonce: accessKey.nonce,
      permission: { ...p, gasKeyInfo: { ...info, balance: info.balance - cost.burntAmount } },
    };
    // nearcore writes the (unchanged) account back with the key, as for any charged transaction.
    setAccount(state, tx.signerId, signer);
    setAccessKey(state, tx.signerId, tx.publicKey, keyAfterConversion);
    setGasKeyNonce(state, tx.signerId, tx.publicKey, index, tx.nonce);
    return { cost, signer, accessKey: keyAfterConversion, depositFailed: depositFailure };
  }
  const charged: Account = { ...signer, amount: signer.amount - cost.depositCost };

  const newKey: AccessKey = {
    nonce: accessKey.nonce,
    permission: { ...p, gasKeyInfo: { ...info, balance: info.balance - cost.gasCost } },
  };
  setAccount(state, tx.signerId, charged);
  setAccessKey(state, tx.signerId, tx.publicKey, newKey);
  setGasKeyNonce(state, tx.signerId, tx.publicKey, index, tx.nonce);
  return { cost, signer: charged, accessKey: newKey };
}

/** Why the account cannot pay the deposits (nearcore's two `NotEnoughBalanceForDeposit` reasons), if so. */
function depositFailureOf(
  params: RuntimeParams,
  signerId: string,
  signer: Account,
  cost: TransactionCost,
): InvalidTxError | undefined {
  if (signer.amount < cost.depositCost) {
    return invalidTx.notEnoughBalanceForDeposit(
      signerId,
      signer.amount,
      cost.depositCost,
      'NotEnoughBalance',
    );
  }
  const charged: Account = { ...signer, amount: signer.amount - cost.depositCost };
  const lacking = insufficientStorageStake(charged, params.storageAmountPerByte);
  if (lacking > 0n) {
    return invalidTx.notEnoughBalanceForDeposit(signerId, charged.amount, lacking, 'LackBalanceForState');
  }
  return undefined;
}
