/**
 * The pinned fee schedule as arithmetic on RPC `ActionView`s. Every expected amount is computed here from
 * `loadRuntimeConfig()` and the protocol's rules, never from the node's own runtime code, so a test can catch
 * the runtime getting a rule wrong.
 */
import type { loadRuntimeConfig } from '@shadebox/node';
import type { Json } from './raw-rpc.js';

export type RuntimeConfig = ReturnType<typeof loadRuntimeConfig>;

const isNearImplicit = (id: string) => /^[0-9a-f]{64}$/.test(id);
const isEthImplicit = (id: string) => /^0x[0-9a-f]{40}$/.test(id);
const isDeterministic = (id: string) => /^0s[0-9a-f]{40}$/.test(id);

/**
 * The pinned fee schedule applied to RPC `ActionView`s (runtime/runtime/src/config.rs of nearcore): send fees
 * burnt at conversion, execution fees burnt by the receipt, and the gas a transaction buys for its receipt.
 */
export class Fees {
  constructor(readonly cfg: RuntimeConfig) {}

  private fee(name: keyof RuntimeConfig['fees']) {
    return this.cfg.fees[name];
  }

  /** Gas of `action` picked by `pick` (a send or the execution component). */
  private actionGas(
    action: Json,
    receiverId: string,
    pick: (f: { sendSir: bigint; sendNotSir: bigint; execution: bigint }) => bigint,
  ): bigint {
    if (action === 'CreateAccount') return pick(this.fee('create_account'));
    const [[kind, body]] = Object.entries(action) as [[string, Json]];
    switch (kind) {
      case 'Transfer': {
        let gas = pick(this.fee('transfer'));
        if (isNearImplicit(receiverId))
          gas += pick(this.fee('create_account')) + pick(this.fee('add_full_access_key'));
        else if (
          (isEthImplicit(receiverId) && this.cfg.wasm.ethImplicitAccounts) ||
          isDeterministic(receiverId)
        )
          gas += pick(this.fee('create_account'));
        return gas;
      }
      case 'FunctionCall': {
        const bytes = Buffer.byteLength(body.method_name) + Buffer.from(body.args, 'base64').length;
        return pick(this.fee('function_call_base')) + pick(this.fee('function_call_byte')) * BigInt(bytes);
      }
      case 'AddKey': {
        const permission = body.access_key.permission;
        if (permission === 'FullAccess') return pick(this.fee('add_full_access_key'));
        const names: string[] = permission.FunctionCall.method_names;
        const bytes = names.reduce((n, name) => n + Buffer.byteLength(name) + 1, 0);
        return (
          pick(this.fee('add_function_call_key_base')) +
          pick(this.fee('add_function_call_key_byte')) * BigInt(bytes)
        );
      }
      case 'DeleteKey':
        return pick(this.fee('delete_key'));
      case 'DeleteAccount':
        return pick(this.fee('delete_account'));
      case 'Stake':
        return pick(this.fee('stake'));
      case 'Delegate':
        return pick(this.fee('delegate'));
      default:
        throw new Error(`no fee for action ${kind}`);
    }
  }

  /** Gas burnt when a transaction with `actions` becomes a receipt (`sir`: signer is receiver). */
  sendGas(actions: Json[], sir: boolean, receiverId: string): bigint {
    const pick = (f: { sendSir: bigint; sendNotSir: bigint }) => (sir ? f.sendSir : f.sendNotSir);
    return pick(this.fee('new_action_receipt')) + this.actionsSend(actions, sir, receiverId);
  }

  /** Send fees of actions (a Delegate also pays its inner actions' send fees, with the outer `sir`). */
  actionsSend(actions: Json[], sir: boolean, receiverId: string): bigint {
    const pick = (f: { sendSir: bigint; sendNotSir: bigint }) => (sir ? f.sendSir : f.sendNotSir);
    let gas = 0n;
    for (const action of actions) {
      gas += this.actionGas(action, receiverId, pick);
      if (typeof action === 'object' && 'Delegate' in action) {
        const inner = action.Delegate.delegate_action;
        gas += this.actionsSend(inner.actions, sir, inner.receiver_id);
      }
    }
    return gas;
  }

  /** Execution gas of one action. */
  actionExec(action: Json, receiverId: string): bigint {
    return this.actionGas(action, receiverId, (f) => f.execution);
  }

  /** Gas a receipt with `actions` burns when it executes the first `count` actions (default all). */
  execGas(actions: Json[], receiverId: string, count = actions.length): bigint {
    let gas = this.fee('new_action_receipt').execution;
    for (const action of actions.slice(0, count)) gas += this.actionExec(action, receiverId);
    return gas;
  }

  /** Gas bought with the transaction for its receipt (`gas_remaining` of nearcore's tx_cost). */
  prepaidGas(actions: Json[], receiverId: string): bigint {
    let gas = this.fee('new_action_receipt').execution;
    for (const action of actions) {
      if (typeof action === 'object' && 'Delegate' in action) {
        const inner = action.Delegate.delegate_action;
        gas += this.execGas(inner.actions, inner.receiver_id) + this.actionExec(action, receiverId);
        gas += this.actionsSend(inner.actions, inner.sender_id === inner.receiver_id, inner.receiver_id);
        gas += attachedGas(inner.actions);
      } else {
        gas += this.actionExec(action, receiverId);
      }
    }
    return gas + attachedGas(actions.filter((a) => !(typeof a === 'object' && 'Delegate' in a)));
  }

  /** `account_creation_charge` minus what the CreateAccount execution already burnt at `burnPrice`. */
  creationCharge(burnPrice: bigint): bigint {
    const burnt = this.fee('create_account').execution * burnPrice;
    return this.cfg.accountCreationCharge > burnt ? this.cfg.accountCreationCharge - burnt : 0n;
  }

  /** The price gas for receipts is bought at. */
  purchasePrice(gasPrice: bigint): bigint {
    return gasPrice > this.cfg.minGasPurchasePrice ? gasPrice : this.cfg.minGasPurchasePrice;
  }
}

export function attachedGas(actions: Json[]): bigint {
  let gas = 0n;
  for (const a of actions)
    if (typeof a === 'object' && 'FunctionCall' in a) gas += BigInt(a.FunctionCall.gas);
  return gas;
}

export function depositOf(actions: Json[]): bigint {
  let amount = 0n;
  for (const a of actions) {
    if (typeof a !== 'object') continue;
    if ('Transfer' in a) amount += BigInt(a.Transfer.deposit);
    if ('FunctionCall' in a) amount += BigInt(a.FunctionCall.deposit);
    if ('Delegate' in a) amount += depositOf(a.Delegate.delegate_action.actions);
  }
  return amount;
}
