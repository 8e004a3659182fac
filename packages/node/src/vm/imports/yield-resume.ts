/**
 * What `promise_yield_resume` and `promise_yield_resume_with_yield_id` do first, in near-vm-runner's order:
 * `base`, the call is refused in views, `yield_resume_base` and `yield_resume_byte` per payload byte, the id
 * and the payload read, and the payload limit (YieldPayloadLength). Each caller then checks its id's form.
 */
import { hostError } from '../vm-errors.js';
import type { VMLogic } from '../vm-logic.js';

export function chargeYieldResume(
  vm: VMLogic,
  name: string,
  idLen: bigint,
  idPtr: bigint,
  payloadLen: bigint,
  payloadPtr: bigint,
): { id: Uint8Array; payload: Uint8Array } {
  vm.payBase();
  vm.prohibitedInView(name);
  vm.gas.payBase(vm.costs.yield_resume_base);
  vm.gas.payPer(vm.costs.yield_resume_byte, payloadLen);
  const id = vm.memoryOrRegister(idPtr, idLen);
  const payload = vm.memoryOrRegister(payloadPtr, payloadLen);
  const limit = BigInt(vm.config.limits.maxYieldPayloadSize);
  if (BigInt(payload.length) > limit) throw hostError.yieldPayloadLength(BigInt(payload.length), limit);
  return { id, payload };
}
