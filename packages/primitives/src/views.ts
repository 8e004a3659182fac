/**
 * The JSON views of the RPC, as nearcore serialises them (core/primitives/src/views.rs): snake_case fields,
 * hashes and keys as strings, binary data as base64, balances (u128) as decimal strings, gas and other u64
 * values as JSON numbers (exact below 2^53, which gas, nonces and heights stay under).
 *
 * Two JSON forms of actions exist. `ActionView` is what transactions and receipts show: CreateAccount is
 * the bare string "CreateAccount" and DeployContract shows base64 of sha256(code), not the code. Inside
 * `Delegate.delegate_action.actions`, nearcore serialises its `DelegateAction` struct directly, so those
 * actions use the serde form of `Action` itself (`ActionJson`): `{"CreateAccount":{}}`, and DeployContract
 * carries the whole code in base64.
 */
import { accountIdError } from './account-id.js';
import {
  type VersionedSignedDelegateActionView,
  versionedSignedDelegateActionFromView,
  versionedSignedDelegateActionToView,
} from './delegate-action-v2.js';
import { base64Decode, base64Encode } from './encoding.js';
import { InvalidViewError } from './errors.js';
import {
  type GlobalContractDistributionView,
  type GlobalContractIdentifierView,
  globalContractDeployModeFromView,
  globalContractDistributionFromView,
  globalContractDistributionToView,
  globalContractIdentifierFromView,
  globalContractIdentifierToView,
} from './global-contract.js';
import { cryptoHashToString, parseCryptoHash, sha256 } from './hash.js';
import { parsePublicKey, parseSignature, publicKeyToString, signatureToString } from './keys.js';
import {
  type DeterministicStateInitJson,
  type DeterministicStateInitView,
  stateInitActionFromJson,
  stateInitActionFromView,
  stateInitActionToJson,
  stateInitActionToView,
} from './state-init.js';
import { type NonceModeJson, nonceModeToJson } from './transaction-nonce.js';
import type {
  AccessKey,
  AccessKeyPermission,
  Action,
  DelegateAction,
  Receipt,
  SignedDelegateAction,
  SignedTransaction,
} from './types.js';

export type AccessKeyPermissionView =
  | 'FullAccess'
  | { FunctionCall: { allowance: string | null; receiver_id: string; method_names: string[] } }
  | {
      GasKeyFunctionCall: {
        balance: string;
        num_nonces: number;
        allowance: string | null;
        receiver_id: string;
        method_names: string[];
      };
    }
  | { GasKeyFullAccess: { balance: string; num_nonces: number } };

/** The serde form of nearcore's own `AccessKeyPermission` (inside delegate actions): as the view except that
 * GasKeyFunctionCall is a tuple, [gas key info, function-call permission]. */
export type AccessKeyPermissionJson =
  | Exclude<AccessKeyPermissionView, { GasKeyFunctionCall: unknown }>
  | {
      GasKeyFunctionCall: [
        { balance: string; num_nonces: number },
        { allowance: string | null; receiver_id: string; method_names: string[] },
      ];
    };

export interface AccessKeyView {
  nonce: number;
  permission: AccessKeyPermissionView;
}

export interface AccessKeyJson {
  nonce: number;
  permission: AccessKeyPermissionJson;
}

export interface DelegateActionView {
  sender_id: string;
  receiver_id: string;
  actions: ActionJson[];
  nonce: number;
  max_block_height: number;
  public_key: string;
}

export type ActionView =
  | 'CreateAccount'
  | { DeployContract: { code: string } }
  | { FunctionCall: { method_name: string; args: string; gas: number; deposit: string } }
  | { Transfer: { deposit: string } }
  | { Stake: { stake: string; public_key: string } }
  | { AddKey: { public_key: string; access_key: AccessKeyView } }
  | { DeleteKey: { public_key: string } }
  | { DeleteAccount: { beneficiary_id: string } }
  | { Delegate: { delegate_action: DelegateActionView; signature: string } }
  | { DeployGlobalContract: { code: string } }
  | { DeployGlobalContractByAccountId: { code: string } }
  | { UseGlobalContract: { code_hash: string } }
  | { UseGlobalContractByAccountId: { account_id: string } }
  | { TransferToGasKey: { public_key: string; deposit: string } }
  | { WithdrawFromGasKey: { public_key: string; amount: string } }
  | { DelegateV2: VersionedSignedDelegateActionView }
  | { DeterministicStateInit: DeterministicStateInitView }
  | { UniversalStateInit: UniversalStateInitJson };

/** The serde form of a (non-delegate) `Action`, used inside delegate actions. */
export type ActionJson =
  | { CreateAccount: Record<string, never> }
  | { DeployContract: { code: string } }
  | { FunctionCall: { method_name: string; args: string; gas: number; deposit: string } }
  | { Transfer: { deposit: string } }
  | { Stake: { stake: string; public_key: string } }
  | { AddKey: { public_key: string; access_key: AccessKeyJson } }
  | { DeleteKey: { public_key: string } }
  | { DeleteAccount: { beneficiary_id: string } }
  | { DeployGlobalContract: { code: string; deploy_mode: 'CodeHash' | 'AccountId' } }
  | { UseGlobalContract: { contract_identifier: GlobalContractIdentifierView } }
  | { TransferToGasKey: { public_key: string; deposit: string } }
  | { WithdrawFromGasKey: { public_key: string; amount: string } }
  | { DeterministicStateInit: DeterministicStateInitJson }
  | { UniversalStateInit: UniversalStateInitJson };

/** `UniversalStateInitAction` in JSON, as an action and as its view: the raw bytes in base64. */
export interface UniversalStateInitJson {
  state_init: string;
  deposit: string;
}

export interface SignedTransactionView {
  signer_id: string;
  public_key: string;
  nonce: number;
  receiver_id: string;
  actions: ActionView[];
  /** Always 0: kept by nearcore for compatibility since TransactionV1 lost its priority fee. */
  priority_fee: number;
  signature: string;
  hash: string;
  /** Only for a gas-key nonce. */
  nonce_index?: number;
  /** Only for a TransactionV1. */
  nonce_mode?: NonceModeJson;
}

export interface DataReceiverView {
  data_id: string;
  receiver_id: string;
}

export type ReceiptEnumView =
  | {
      Action: {
        signer_id: string;
        signer_public_key: string;
        gas_price: string;
        output_data_receivers: DataReceiverView[];
        input_data_ids: string[];
        actions: ActionView[];
        is_promise_yield: boolean;
        /** Only when the receipt carries one (`promise_set_refund_to`). */
        refund_to?: string;
      };
    }
  | { Data: { data_id: string; data: string | null; is_promise_resume: boolean } }
  | { GlobalContractDistribution: GlobalContractDistributionView };

export interface ReceiptView {
  predecessor_id: string;
  receiver_id: string;
  receipt_id: string;
  receipt: ReceiptEnumView;
  priority: number;
}

// ---------------------------------------------------------------------------------------------------------
// To views

function functionCallPermissionToView(permission: {
  allowance: bigint | null;
  receiverId: string;
  methodNames: string[];
}) {
  return {
    allowance: permission.allowance === null ? null : permission.allowance.toString(),
    receiver_id: permission.receiverId,
    method_names: [...permission.methodNames],
  };
}

export function accessKeyPermissionToView(permission: AccessKeyPermission): AccessKeyPermissionView {
  switch (permission.kind) {
    case 'FullAccess':
      return 'FullAccess';
    case 'FunctionCall':
      return { FunctionCall: functionCallPermissionToView(permission) };
    case 'GasKeyFunctionCall':
      return {
        GasKeyFunctionCall: {
          balance: permission.gasKeyInfo.balance.toString(),
          num_nonces: permission.gasKeyInfo.numNonces,
          ...functionCallPermissionToView(permission),
        },
      };
    case 'GasKeyFullAccess':
      return {
        GasKeyFullAccess: {
          balance: permission.gasKeyInfo.balance.toString(),
          num_nonces: permission.gasKeyInfo.numNonces,
        },
      };
  }
}

/** The serde form of the permission itself (see `AccessKeyPermissionJson`). */
export function accessKeyPermissionToJson(permission: AccessKeyPermission): AccessKeyPermissionJson {
  if (permission.kind !== 'GasKeyFunctionCall') {
    return accessKeyPermissionToView(permission) as AccessKeyPermissionJson;
  }
  return {
    GasKeyFunctionCall: [
      { balance: permission.gasKeyInfo.balance.toString(), num_nonces: permission.gasKeyInfo.numNonces },
      functionCallPermissionToView(permission),
    ],
  };
}

export function accessKeyToView(accessKey: AccessKey): AccessKeyView {
  return { nonce: Number(accessKey.nonce), permission: accessKeyPermissionToView(accessKey.permission) };
}

export function actionToView(action: Action): ActionView {
  switch (action.type) {
    case 'CreateAccount':
      return 'CreateAccount';
    case 'DeployContract':
      return { DeployContract: { code: base64Encode(sha256(action.code)) } };
    case 'Delegate':
      return {
        Delegate: {
          delegate_action: delegateActionToView(action.signedDelegateAction.delegateAction),
          signature: signatureToString(action.signedDelegateAction.signature),
        },
      };
    case 'DelegateV2':
      return { DelegateV2: versionedSignedDelegateActionToView(action.signedDelegateAction, actionToJson) };
    // Like DeployContract, the view shows base64 of sha256(code); the deploy mode picks the variant name.
    case 'DeployGlobalContract': {
      const code = base64Encode(sha256(action.code));
      return action.deployMode === 'CodeHash'
        ? { DeployGlobalContract: { code } }
        : { DeployGlobalContractByAccountId: { code } };
    }
    case 'UseGlobalContract': {
      const id = action.contractIdentifier;
      return id.kind === 'CodeHash'
        ? { UseGlobalContract: { code_hash: cryptoHashToString(id.codeHash) } }
        : { UseGlobalContractByAccountId: { account_id: id.accountId } };
    }
    case 'DeterministicStateInit':
      return { DeterministicStateInit: stateInitActionToView(action.stateInit, action.deposit) };
    case 'UniversalStateInit':
      return { UniversalStateInit: universalStateInitToJson(action) };
    default:
      return commonActionToJson(action, false) as ActionView;
  }
}

/** The serde form of a non-delegate action (see the module comment). */
export function actionToJson(action: Action): ActionJson {
  switch (action.type) {
    case 'CreateAccount':
      return { CreateAccount: {} };
    case 'DeployContract':
      return { DeployContract: { code: base64Encode(action.code) } };
    case 'Delegate':
    case 'DelegateV2':
      throw new InvalidViewError('action', 'a delegate action cannot contain another delegate action');
    default:
      return commonActionToJson(action, true);
  }
}

/** `raw`: the serde form of `Action` (inside delegate actions) rather than the view. */
function commonActionToJson(action: Action, raw: boolean): ActionJson {
  switch (action.type) {
    case 'FunctionCall':
      return {
        FunctionCall: {
          method_name: action.methodName,
          args: base64Encode(action.args),
          gas: Number(action.gas),
          deposit: action.deposit.toString(),
        },
      };
    case 'Transfer':
      return { Transfer: { deposit: action.deposit.toString() } };
    case 'Stake':
      return { Stake: { stake: action.stake.toString(), public_key: publicKeyToString(action.publicKey) } };
    case 'AddKey':
      return {
        AddKey: {
          public_key: publicKeyToString(action.publicKey),
          access_key: raw
            ? {
                nonce: Number(action.accessKey.nonce),
                permission: accessKeyPermissionToJson(action.accessKey.permission),
              }
            : accessKeyToView(action.accessKey),
        },
      } as ActionJson;
    case 'DeleteKey':
      return { DeleteKey: { public_key: publicKeyToString(action.publicKey) } };
    case 'DeleteAccount':
      return { DeleteAccount: { beneficiary_id: action.beneficiaryId } };
    case 'TransferToGasKey':
      return {
        TransferToGasKey: {
          public_key: publicKeyToString(action.publicKey),
          deposit: action.deposit.toString(),
        },
      };
    case 'WithdrawFromGasKey':
      return {
        WithdrawFromGasKey: {
          public_key: publicKeyToString(action.publicKey),
          amount: action.amount.toString(),
        },
      };
    case 'DeployGlobalContract':
      return { DeployGlobalContract: { code: base64Encode(action.code), deploy_mode: action.deployMode } };
    case 'UseGlobalContract':
      return {
        UseGlobalContract: { contract_identifier: globalContractIdentifierToView(action.contractIdentifier) },
      };
    case 'DeterministicStateInit':
      return { DeterministicStateInit: stateInitActionToJson(action.stateInit, action.deposit) };
    case 'UniversalStateInit':
      return { UniversalStateInit: universalStateInitToJson(action) };
    default:
      throw new InvalidViewError('action', `unexpected action type ${action.type}`);
  }
}

export function delegateActionToView(delegateAction: DelegateAction): DelegateActionView {
  return {
    sender_id: delegateAction.senderId,
    receiver_id: delegateAction.receiverId,
    actions: delegateAction.actions.map(actionToJson),
    nonce: Number(delegateAction.nonce),
    max_block_height: Number(delegateAction.maxBlockHeight),
    public_key: publicKeyToString(delegateAction.publicKey),
  };
}

/** `SignedTransactionView`; `hash` is the transaction hash (bytes or base58). */
export function signedTransactionToView(
  stx: SignedTransaction,
  hash: Uint8Array | string,
): SignedTransactionView {
  const tx = stx.transaction;
  const view: SignedTransactionView = {
    signer_id: tx.signerId,
    public_key: publicKeyToString(tx.publicKey),
    nonce: Number(tx.nonce),
    receiver_id: tx.receiverId,
    actions: tx.actions.map(actionToView),
    priority_fee: 0,
    signature: signatureToString(stx.signature),
    hash: typeof hash === 'string' ? hash : cryptoHashToString(hash),
  };
  if (tx.version === 1) {
    if (tx.nonceIndex !== undefined) view.nonce_index = tx.nonceIndex;
    view.nonce_mode = nonceModeToJson(tx.nonceMode ?? 'Monotonic');
  }
  return view;
}

export function receiptToView(receipt: Receipt): ReceiptView {
  const inner = receipt.receipt;
  const view: ReceiptEnumView =
    inner.kind === 'GlobalContractDistribution'
      ? { GlobalContractDistribution: globalContractDistributionToView(inner) }
      : inner.kind === 'Action'
        ? {
            Action: {
              signer_id: inner.signerId,
              signer_public_key: publicKeyToString(inner.signerPublicKey),
              gas_price: inner.gasPrice.toString(),
              output_data_receivers: inner.outputDataReceivers.map((dr) => ({
                data_id: cryptoHashToString(dr.dataId),
                receiver_id: dr.receiverId,
              })),
              input_data_ids: inner.inputDataIds.map(cryptoHashToString),
              actions: inner.actions.map(actionToView),
              is_promise_yield: inner.isPromiseYield,
              // nearcore adds refund_to to the view only when the receipt carries one.
              ...(inner.refundTo !== undefined ? { refund_to: inner.refundTo } : {}),
            },
          }
        : {
            Data: {
              data_id: cryptoHashToString(inner.dataId),
              data: inner.data === null ? null : base64Encode(inner.data),
              is_promise_resume: inner.isPromiseResume,
            },
          };
  return {
    predecessor_id: receipt.predecessorId,
    receiver_id: receipt.receiverId,
    receipt_id: cryptoHashToString(receipt.receiptId),
    receipt: view,
    priority: Number(receipt.priority),
  };
}

// ---------------------------------------------------------------------------------------------------------
// From views (sandbox_patch_state and tests). Malformed input throws InvalidViewError with the path.

function universalStateInitToJson(
  action: Extract<Action, { type: 'UniversalStateInit' }>,
): UniversalStateInitJson {
  return { state_init: base64Encode(action.stateInit), deposit: action.deposit.toString() };
}

function universalStateInitFromJson(o: Record<string, unknown>, p: string): Action {
  return {
    type: 'UniversalStateInit',
    stateInit: b64(o.state_init, `${p}.state_init`),
    deposit: u128(o.deposit, `${p}.deposit`),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: unknown, path: string): Record<string, unknown> {
  if (!isObject(v)) throw new InvalidViewError(path, 'expected an object');
  return v;
}

/** `{ "Variant": body }` → [variant, body]. */
function variant(v: unknown, path: string): [string, unknown] {
  const o = obj(v, path);
  const keys = Object.keys(o);
  if (keys.length !== 1) throw new InvalidViewError(path, 'expected an object with exactly one variant key');
  return [keys[0], o[keys[0]]];
}

function str(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new InvalidViewError(path, 'expected a string');
  return v;
}

function arr(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw new InvalidViewError(path, 'expected an array');
  return v;
}

function bool(v: unknown, path: string, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new InvalidViewError(path, 'expected a boolean');
  return v;
}

/** u64 from a JSON number (or a bigint). */
function u64(v: unknown, path: string): bigint {
  if (typeof v === 'bigint' && v >= 0n && v < 1n << 64n) return v;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER)
    return BigInt(v);
  throw new InvalidViewError(path, 'expected a non-negative integer');
}

/** u128 from a decimal string (nearcore's `dec_format` also takes a JSON integer). */
function u128(v: unknown, path: string): bigint {
  if (typeof v === 'number') return u64(v, path);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || v.length > 39) {
    throw new InvalidViewError(path, 'expected a decimal string');
  }
  const n = BigInt(v);
  if (n >= 1n << 128n) throw new InvalidViewError(path, 'out of range for u128');
  return n;
}

function b64(v: unknown, path: string): Uint8Array {
  try {
    return base64Decode(str(v, path));
  } catch (err) {
    if (err instanceof InvalidViewError) throw err;
    throw new InvalidViewError(path, 'expected base64');
  }
}

function hash32(v: unknown, path: string): Uint8Array {
  try {
    return parseCryptoHash(str(v, path));
  } catch (err) {
    if (err instanceof InvalidViewError) throw err;
    throw new InvalidViewError(path, 'expected a base58 32-byte hash');
  }
}

function publicKey(v: unknown, path: string) {
  try {
    return parsePublicKey(str(v, path));
  } catch (err) {
    if (err instanceof InvalidViewError) throw err;
    throw new InvalidViewError(path, err instanceof Error ? err.message : 'invalid public key');
  }
}

function signature(v: unknown, path: string) {
  try {
    return parseSignature(str(v, path));
  } catch (err) {
    if (err instanceof InvalidViewError) throw err;
    throw new InvalidViewError(path, err instanceof Error ? err.message : 'invalid signature');
  }
}

function accountId(v: unknown, path: string): string {
  const id = str(v, path);
  const reason = accountIdError(id);
  if (reason !== null) throw new InvalidViewError(path, `invalid account id: ${reason}`);
  return id;
}

function functionCallPermissionFromView(fc: Record<string, unknown>, p: string) {
  const allowance =
    fc.allowance === null || fc.allowance === undefined ? null : u128(fc.allowance, `${p}.allowance`);
  return {
    allowance,
    receiverId: str(fc.receiver_id, `${p}.receiver_id`),
    methodNames: arr(fc.method_names ?? [], `${p}.method_names`).map((m, i) =>
      str(m, `${p}.method_names[${i}]`),
    ),
  };
}

function gasKeyInfoFromView(o: Record<string, unknown>, p: string) {
  const numNonces = u64(o.num_nonces, `${p}.num_nonces`);
  if (numNonces > 0xffffn) throw new InvalidViewError(`${p}.num_nonces`, 'out of range for u16');
  return { balance: u128(o.balance, `${p}.balance`), numNonces: Number(numNonces) };
}

/** Takes the view form and the serde form of the permission itself (GasKeyFunctionCall as a tuple). */
export function accessKeyPermissionFromView(view: unknown, path = 'permission'): AccessKeyPermission {
  if (view === 'FullAccess') return { kind: 'FullAccess' };
  const [name, body] = variant(view, path);
  const p = `${path}.${name}`;
  // serde_json also takes a unit variant as `{"FullAccess": null}`.
  if (name === 'FullAccess' && body === null) return { kind: 'FullAccess' };
  if (name === 'FunctionCall')
    return { kind: 'FunctionCall', ...functionCallPermissionFromView(obj(body, p), p) };
  if (name === 'GasKeyFullAccess')
    return { kind: 'GasKeyFullAccess', gasKeyInfo: gasKeyInfoFromView(obj(body, p), p) };
  if (name === 'GasKeyFunctionCall') {
    if (Array.isArray(body)) {
      if (body.length !== 2)
        throw new InvalidViewError(p, 'expected [gas key info, function call permission]');
      return {
        kind: 'GasKeyFunctionCall',
        gasKeyInfo: gasKeyInfoFromView(obj(body[0], `${p}[0]`), `${p}[0]`),
        ...functionCallPermissionFromView(obj(body[1], `${p}[1]`), `${p}[1]`),
      };
    }
    const o = obj(body, p);
    return {
      kind: 'GasKeyFunctionCall',
      gasKeyInfo: gasKeyInfoFromView(o, p),
      ...functionCallPermissionFromView(o, p),
    };
  }
  throw new InvalidViewError(path, `unknown permission ${JSON.stringify(name)}`);
}

export function accessKeyFromView(view: unknown, path = 'access_key'): AccessKey {
  const o = obj(view, path);
  return {
    nonce: u64(o.nonce, `${path}.nonce`),
    permission: accessKeyPermissionFromView(o.permission, `${path}.permission`),
  };
}

/**
 * The reverse of `actionToView`, as nearcore's `TryFrom<ActionView> for Action`. A DeployContract view holds
 * only the code hash, so the action it gives has those 32 bytes as its "code" (nearcore does the same).
 */
export function actionFromView(view: unknown, path = 'action'): Action {
  if (view === 'CreateAccount') return { type: 'CreateAccount' };
  const [name, body] = variant(view, path);
  if (name === 'Delegate') {
    const d = obj(body, `${path}.Delegate`);
    return { type: 'Delegate', signedDelegateAction: signedDelegateActionFromView(d, `${path}.Delegate`) };
  }
  if (name === 'DelegateV2') {
    return {
      type: 'DelegateV2',
      signedDelegateAction: versionedSignedDelegateActionFromView(
        body,
        actionFromJson,
        accountId,
        `${path}.DelegateV2`,
      ),
    };
  }
  const p = `${path}.${name}`;
  // The deploy views hold only the code hash, which becomes the action's "code" (as for DeployContract).
  if (name === 'DeployGlobalContract' || name === 'DeployGlobalContractByAccountId') {
    const deployMode = name === 'DeployGlobalContract' ? 'CodeHash' : 'AccountId';
    return { type: 'DeployGlobalContract', code: b64(obj(body, p).code, `${p}.code`), deployMode };
  }
  if (name === 'UseGlobalContract') {
    const codeHash = hash32(obj(body, p).code_hash, `${p}.code_hash`);
    return { type: 'UseGlobalContract', contractIdentifier: { kind: 'CodeHash', codeHash } };
  }
  if (name === 'UseGlobalContractByAccountId') {
    const accountId_ = accountId(obj(body, p).account_id, `${p}.account_id`);
    return { type: 'UseGlobalContract', contractIdentifier: { kind: 'AccountId', accountId: accountId_ } };
  }
  if (name === 'DeterministicStateInit') {
    return { type: 'DeterministicStateInit', ...stateInitActionFromView(obj(body, p), p) };
  }
  if (name === 'UniversalStateInit') return universalStateInitFromJson(obj(body, p), p);
  return commonActionFromJson(name, body, path);
}

/** The reverse of `actionToJson` (the serde form used inside delegate actions). */
export function actionFromJson(json: unknown, path = 'action'): Action {
  const [name, body] = variant(json, path);
  if (name === 'Delegate' || name === 'DelegateV2')
    throw new InvalidViewError(path, 'a delegate action cannot contain another delegate action');
  return commonActionFromJson(name, body, path);
}

function commonActionFromJson(name: string, body: unknown, path: string): Action {
  const p = `${path}.${name}`;
  switch (name) {
    case 'CreateAccount':
      obj(body, p);
      return { type: 'CreateAccount' };
    case 'DeployContract':
      return { type: 'DeployContract', code: b64(obj(body, p).code, `${p}.code`) };
    case 'FunctionCall': {
      const o = obj(body, p);
      return {
        type: 'FunctionCall',
        methodName: str(o.method_name, `${p}.method_name`),
        args: b64(o.args, `${p}.args`),
        gas: u64(o.gas, `${p}.gas`),
        deposit: u128(o.deposit, `${p}.deposit`),
      };
    }
    case 'Transfer':
      return { type: 'Transfer', deposit: u128(obj(body, p).deposit, `${p}.deposit`) };
    case 'Stake': {
      const o = obj(body, p);
      return {
        type: 'Stake',
        stake: u128(o.stake, `${p}.stake`),
        publicKey: publicKey(o.public_key, `${p}.public_key`),
      };
    }
    case 'AddKey': {
      const o = obj(body, p);
      return {
        type: 'AddKey',
        publicKey: publicKey(o.public_key, `${p}.public_key`),
        accessKey: accessKeyFromView(o.access_key, `${p}.access_key`),
      };
    }
    case 'DeleteKey':
      return { type: 'DeleteKey', publicKey: publicKey(obj(body, p).public_key, `${p}.public_key`) };
    case 'DeleteAccount':
      return {
        type: 'DeleteAccount',
        beneficiaryId: accountId(obj(body, p).beneficiary_id, `${p}.beneficiary_id`),
      };
    case 'TransferToGasKey': {
      const o = obj(body, p);
      return {
        type: 'TransferToGasKey',
        publicKey: publicKey(o.public_key, `${p}.public_key`),
        deposit: u128(o.deposit, `${p}.deposit`),
      };
    }
    case 'WithdrawFromGasKey': {
      const o = obj(body, p);
      return {
        type: 'WithdrawFromGasKey',
        publicKey: publicKey(o.public_key, `${p}.public_key`),
        amount: u128(o.amount, `${p}.amount`),
      };
    }
    case 'DeployGlobalContract': {
      const o = obj(body, p);
      return {
        type: 'DeployGlobalContract',
        code: b64(o.code, `${p}.code`),
        deployMode: globalContractDeployModeFromView(o.deploy_mode, `${p}.deploy_mode`),
      };
    }
    case 'UseGlobalContract':
      return {
        type: 'UseGlobalContract',
        contractIdentifier: globalContractIdentifierFromView(
          obj(body, p).contract_identifier,
          `${p}.contract_identifier`,
        ),
      };
    case 'DeterministicStateInit':
      return { type: 'DeterministicStateInit', ...stateInitActionFromJson(obj(body, p), p) };
    case 'UniversalStateInit':
      return universalStateInitFromJson(obj(body, p), p);
    default:
      throw new InvalidViewError(path, `unknown action ${JSON.stringify(name)}`);
  }
}

export function delegateActionFromView(view: unknown, path = 'delegate_action'): DelegateAction {
  const o = obj(view, path);
  return {
    senderId: accountId(o.sender_id, `${path}.sender_id`),
    receiverId: accountId(o.receiver_id, `${path}.receiver_id`),
    actions: arr(o.actions, `${path}.actions`).map((a, i) => actionFromJson(a, `${path}.actions[${i}]`)),
    nonce: u64(o.nonce, `${path}.nonce`),
    maxBlockHeight: u64(o.max_block_height, `${path}.max_block_height`),
    publicKey: publicKey(o.public_key, `${path}.public_key`),
  };
}

/** `{ delegate_action, signature }`, the JSON of a SignedDelegateAction (also what relayers exchange). */
export function signedDelegateActionFromView(
  view: unknown,
  path = 'signed_delegate_action',
): SignedDelegateAction {
  const o = obj(view, path);
  return {
    delegateAction: delegateActionFromView(o.delegate_action, `${path}.delegate_action`),
    signature: signature(o.signature, `${path}.signature`),
  };
}

export function signedDelegateActionToView(signed: SignedDelegateAction): {
  delegate_action: DelegateActionView;
  signature: string;
} {
  return {
    delegate_action: delegateActionToView(signed.delegateAction),
    signature: signatureToString(signed.signature),
  };
}

/** The reverse of `receiptToView`, as nearcore's `TryFrom<ReceiptView> for Receipt` (a ReceiptV1). */
export function receiptFromView(view: unknown, path = 'receipt'): Receipt {
  const o = obj(view, path);
  const [name, body] = variant(o.receipt, `${path}.receipt`);
  const p = `${path}.receipt.${name}`;
  let receipt: Receipt['receipt'];
  if (name === 'Action') {
    const a = obj(body, p);
    receipt = {
      kind: 'Action',
      signerId: accountId(a.signer_id, `${p}.signer_id`),
      signerPublicKey: publicKey(a.signer_public_key, `${p}.signer_public_key`),
      gasPrice: u128(a.gas_price, `${p}.gas_price`),
      outputDataReceivers: arr(a.output_data_receivers, `${p}.output_data_receivers`).map((dr, i) => {
        const d = obj(dr, `${p}.output_data_receivers[${i}]`);
        return {
          dataId: hash32(d.data_id, `${p}.output_data_receivers[${i}].data_id`),
          receiverId: accountId(d.receiver_id, `${p}.output_data_receivers[${i}].receiver_id`),
        };
      }),
      inputDataIds: arr(a.input_data_ids, `${p}.input_data_ids`).map((id, i) =>
        hash32(id, `${p}.input_data_ids[${i}]`),
      ),
      actions: arr(a.actions, `${p}.actions`).map((x, i) => actionFromView(x, `${p}.actions[${i}]`)),
      isPromiseYield: bool(a.is_promise_yield, `${p}.is_promise_yield`, false),
    };
    // As nearcore's view-to-receipt conversion: an ActionReceiptV2 only when refund_to is given.
    if (a.refund_to !== undefined && a.refund_to !== null) {
      receipt = { ...receipt, v2: true, refundTo: accountId(a.refund_to, `${p}.refund_to`) };
    }
  } else if (name === 'Data') {
    const d = obj(body, p);
    receipt = {
      kind: 'Data',
      dataId: hash32(d.data_id, `${p}.data_id`),
      data: d.data === null || d.data === undefined ? null : b64(d.data, `${p}.data`),
      isPromiseResume: bool(d.is_promise_resume, `${p}.is_promise_resume`, false),
    };
  } else if (name === 'GlobalContractDistribution') {
    receipt = { kind: 'GlobalContractDistribution', ...globalContractDistributionFromView(body, p) };
  } else {
    throw new InvalidViewError(`${path}.receipt`, `unknown receipt kind ${JSON.stringify(name)}`);
  }
  return {
    predecessorId: accountId(o.predecessor_id, `${path}.predecessor_id`),
    receiverId: accountId(o.receiver_id, `${path}.receiver_id`),
    receiptId: hash32(o.receipt_id, `${path}.receipt_id`),
    receipt,
    priority: o.priority === undefined ? 0n : u64(o.priority, `${path}.priority`),
    version: 1,
  };
}
