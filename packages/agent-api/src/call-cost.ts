/**
 * What one `/call` transaction can take from the agent's balance when it is included, computed as nearcore's
 * `tx_cost` (runtime/runtime/src/config.rs) from the chain's own protocol config: the gas burnt converting the
 * transaction into a receipt (the action receipt's and the function call's send fees) at the block's gas
 * price, plus all the gas bought for the receipt (the attached gas, the receipt's and the call's execution
 * fees) at the receipt's price — at protocol 85 `max(gas price, min_gas_purchase_price)` (NEP-642), so 100 Tgas
 * costs about 0.1 NEAR up front whatever the gas price — plus the deposit. What is not used comes back later
 * as a refund receipt; until then the balance is short of the whole prepaid amount.
 */
import type { RpcClient } from '@shadebox/near-client';

/** nearcore's `Fee`: gas to send a receipt to the signer itself or elsewhere, and to execute it. */
export interface Fee {
  sendSir: bigint;
  sendNotSir: bigint;
  execution: bigint;
}

/** The parts of the protocol config a function-call transaction's cost depends on. */
export interface CallPricing {
  actionReceipt: Fee;
  functionCall: Fee;
  functionCallPerByte: Fee;
  /** `min_gas_purchase_price` (protocol 85; 0 on chains without it). */
  minGasPurchasePrice: bigint;
}

export interface CallCostInput {
  signerId: string;
  receiverId: string;
  methodName: string;
  /** Length of the serialized arguments, in bytes. */
  argsLength: number;
  /** Attached gas. */
  gas: bigint;
  deposit: bigint;
}

/** The cost at `gasPrice` (the price of the block that will include it), in yoctoNEAR. */
export function callCost(pricing: CallPricing, call: CallCostInput, gasPrice: bigint): bigint {
  const sir = call.signerId === call.receiverId;
  const send = (fee: Fee) => (sir ? fee.sendSir : fee.sendNotSir);
  const bytes = BigInt(Buffer.byteLength(call.methodName) + call.argsLength);
  const burnt =
    send(pricing.actionReceipt) + send(pricing.functionCall) + send(pricing.functionCallPerByte) * bytes;
  const bought =
    call.gas +
    pricing.actionReceipt.execution +
    pricing.functionCall.execution +
    pricing.functionCallPerByte.execution * bytes;
  const receiptPrice = gasPrice > pricing.minGasPurchasePrice ? gasPrice : pricing.minGasPurchasePrice;
  return burnt * gasPrice + bought * receiptPrice + call.deposit;
}

/** The pricing from `EXPERIMENTAL_protocol_config`'s result. */
export function callPricingOf(protocolConfig: unknown): CallPricing {
  // biome-ignore lint/suspicious/noExplicitAny: JSON read field by field.
  const c = protocolConfig as any;
  const costs = c?.runtime_config?.transaction_costs;
  const fee = (v: unknown, name: string): Fee => {
    // biome-ignore lint/suspicious/noExplicitAny: JSON.
    const f = v as any;
    if (f === null || typeof f !== 'object') throw new Error(`protocol config without ${name}`);
    return {
      sendSir: BigInt(f.send_sir),
      sendNotSir: BigInt(f.send_not_sir),
      execution: BigInt(f.execution),
    };
  };
  const min = c?.runtime_config?.min_gas_purchase_price ?? c?.min_gas_purchase_price;
  return {
    actionReceipt: fee(costs?.action_receipt_creation_config, 'action_receipt_creation_config'),
    functionCall: fee(costs?.action_creation_config?.function_call_cost, 'function_call_cost'),
    functionCallPerByte: fee(
      costs?.action_creation_config?.function_call_cost_per_byte,
      'function_call_cost_per_byte',
    ),
    minGasPurchasePrice: min === undefined || min === null ? 0n : BigInt(min),
  };
}

/** Reads the pricing from the chain (`EXPERIMENTAL_protocol_config` at the final block). */
export async function fetchCallPricing(rpc: RpcClient): Promise<CallPricing> {
  return callPricingOf(await rpc.call('EXPERIMENTAL_protocol_config', { finality: 'final' }));
}

/** The gas price of the latest block (`gas_price` with no block). */
export async function fetchGasPrice(rpc: RpcClient): Promise<bigint> {
  const r = await rpc.call<{ gas_price: string }>('gas_price', [null]);
  return BigInt(r.gas_price);
}
