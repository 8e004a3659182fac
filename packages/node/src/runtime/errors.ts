/**
 * The protocol's errors, as typed classes whose `toJSON()` is exactly the JSON nearcore gives them
 * (core/primitives/src/errors.rs). Converted to RPC envelopes in one place: rpc/rpc-error.ts.
 */
import { ShadeboxError } from '@shadebox/errors';

/** `InvalidTxError`: the transaction is rejected before it becomes a receipt. `json` is the variant's JSON,
 * e.g. `{ InvalidNonce: { tx_nonce: 5, ak_nonce: 7 } }` or `"InvalidSignature"`. */
export class InvalidTxError extends ShadeboxError<{ error: unknown }> {
  constructor(
    readonly json: unknown,
    message: string,
  ) {
    super(message, { details: { error: json } });
  }
  /** The variant's JSON as nearcore writes it (this error goes on the wire as it is). */
  // biome-ignore lint/suspicious/noExplicitAny: a variant's JSON has no one type
  override toJSON(): any {
    return this.json;
  }
}

/** An `InvalidAccessKeyError` variant (also used inside `DelegateActionAccessKeyError`). */
export type InvalidAccessKeyJson =
  | { AccessKeyNotFound: { account_id: string; public_key: string } }
  | { ReceiverMismatch: { tx_receiver: string; ak_receiver: string } }
  | { MethodNameMismatch: { method_name: string } }
  | 'RequiresFullAccess'
  | { NotEnoughAllowance: { account_id: string; public_key: string; allowance: string; cost: string } }
  | 'DepositWithFunctionCall';

/** A u64 as nearcore writes it: a JSON number, exact (a `bigint` above 2^53; the RPC writes its digits). */
export function u64Json(value: bigint): number | bigint {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** `JSON.stringify` that also takes the bigints of `u64Json` (for messages). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
}

export const invalidTx = {
  accessKey: (e: InvalidAccessKeyJson) =>
    new InvalidTxError({ InvalidAccessKeyError: e }, `invalid access key: ${jsonText(e)}`),
  invalidSignerId: (signer_id: string) =>
    new InvalidTxError({ InvalidSignerId: { signer_id } }, `Invalid signer account ID ${signer_id}`),
  signerDoesNotExist: (signer_id: string) =>
    new InvalidTxError({ SignerDoesNotExist: { signer_id } }, `Signer ${signer_id} does not exist`),
  invalidNonce: (tx_nonce: bigint, ak_nonce: bigint) =>
    new InvalidTxError(
      { InvalidNonce: { tx_nonce: u64Json(tx_nonce), ak_nonce: u64Json(ak_nonce) } },
      `Transaction nonce ${tx_nonce} must be larger than nonce of the used access key ${ak_nonce}`,
    ),
  nonceTooLarge: (tx_nonce: bigint, upper_bound: bigint) =>
    new InvalidTxError(
      { NonceTooLarge: { tx_nonce: u64Json(tx_nonce), upper_bound: u64Json(upper_bound) } },
      `Transaction nonce ${tx_nonce} must be smaller than the access key nonce upper bound ${upper_bound}`,
    ),
  invalidReceiverId: (receiver_id: string) =>
    new InvalidTxError({ InvalidReceiverId: { receiver_id } }, `Invalid receiver account ID ${receiver_id}`),
  invalidSignature: () =>
    new InvalidTxError('InvalidSignature', 'Transaction is not signed with the given public key'),
  notEnoughBalance: (signer_id: string, balance: bigint, cost: bigint) =>
    new InvalidTxError(
      { NotEnoughBalance: { signer_id, balance: balance.toString(), cost: cost.toString() } },
      `Sender ${signer_id} does not have enough balance ${balance} for operation costing ${cost}`,
    ),
  lackBalanceForState: (signer_id: string, amount: bigint) =>
    new InvalidTxError(
      { LackBalanceForState: { signer_id, amount: amount.toString() } },
      `Failed to execute, because the account ${signer_id} wouldn't have enough balance to cover storage, required to have ${amount} yoctoNEAR more`,
    ),
  costOverflow: () => new InvalidTxError('CostOverflow', 'Transaction gas or balance cost is too high'),
  invalidChain: () =>
    new InvalidTxError('InvalidChain', "Transaction parent block hash doesn't belong to the current chain"),
  expired: () => new InvalidTxError('Expired', 'Transaction has expired'),
  actionsValidation: (e: unknown) =>
    new InvalidTxError({ ActionsValidation: e }, `Transaction actions validation error: ${jsonText(e)}`),
  sizeExceeded: (size: number, limit: number) =>
    new InvalidTxError(
      { TransactionSizeExceeded: { size, limit } },
      `Size of serialized transaction ${size} exceeded the limit ${limit}`,
    ),
  invalidNonceIndex: (tx_nonce_index: number | null, num_nonces: number) =>
    new InvalidTxError(
      { InvalidNonceIndex: { tx_nonce_index, num_nonces } },
      `Transaction nonce index ${tx_nonce_index ?? 'None'} is invalid for a gas key with ${num_nonces} nonces`,
    ),
  notEnoughGasKeyBalance: (signer_id: string, balance: bigint, cost: bigint) =>
    new InvalidTxError(
      { NotEnoughGasKeyBalance: { signer_id, balance: balance.toString(), cost: cost.toString() } },
      `Gas key of ${signer_id} does not have enough balance ${balance} for gas costing ${cost}`,
    ),
  notEnoughBalanceForDeposit: (
    signer_id: string,
    balance: bigint,
    cost: bigint,
    reason: 'NotEnoughBalance' | 'LackBalanceForState',
  ) =>
    new InvalidTxError(
      {
        NotEnoughBalanceForDeposit: { signer_id, balance: balance.toString(), cost: cost.toString(), reason },
      },
      `Sender ${signer_id} does not have enough balance ${balance} for deposits costing ${cost}`,
    ),
  invalidTransactionVersion: () =>
    new InvalidTxError('InvalidTransactionVersion', 'Transaction version is invalid'),
};

/** An action failed while its receipt executed. The whole receipt is rolled back. `kind` is the JSON of
 * `ActionErrorKind`; `index` the failing action's position (null when not attributable to one action). */
export class ActionFailure extends ShadeboxError<{ kind: unknown; index: number | null }> {
  constructor(
    readonly kind: unknown,
    readonly index: number | null = null,
  ) {
    super(`action ${index ?? '?'} failed: ${JSON.stringify(kind)}`, { details: { kind, index } });
  }
  withIndex(index: number): ActionFailure {
    return new ActionFailure(this.kind, index);
  }
  /** `{ ActionError: { index, kind } }` — the `TxExecutionError` inside `Failure`. */
  // biome-ignore lint/suspicious/noExplicitAny: the wire JSON of an action error
  override toJSON(): any {
    return { ActionError: { index: this.index, kind: this.kind } };
  }
}
