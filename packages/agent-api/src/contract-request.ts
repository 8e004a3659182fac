/**
 * Validation of the `/call` and `/view` bodies: method, args, contract (allow-list), gas; no deposit; no
 * field the route does not know (a misspelt `method` or `argss` is named instead of silently ignored). A
 * `request_signature` call to a built-in agent contract has its arguments checked afterwards, once the
 * contract's code is known (routes.ts, request-signature-args.ts).
 */
import { TGAS } from '@shadebox/primitives';
import { isValidAccountId } from './config.js';
import { HttpError } from './http-error.js';

/**
 * Default gas of /call. Not the original's 300 Tgas: a transaction prepays its gas at the pessimistic gas
 * price, so 300 Tgas needs ~0.3 NEAR of balance, all an agent gets at boot.
 */
export const DEFAULT_GAS = 100n * TGAS;
export const MAX_GAS = 1000n * TGAS;

/** The fields each route takes (`deposit` is named by its own refusal below). */
const CALL_FIELDS = ['methodName', 'args', 'gas', 'contractId', 'deposit'];
const VIEW_FIELDS = ['methodName', 'args', 'contractId', 'gas'];

export interface ContractRequest {
  contractId: string;
  methodName: string;
  args: unknown;
  gas: bigint;
}

/** The checked request; `defaultContractId` when the body names none, others only if in `allowed`. */
export function contractRequest(
  body: unknown,
  withGas: boolean,
  defaultContractId: string,
  allowed: ReadonlySet<string>,
): ContractRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(
      400,
      'invalid_body',
      'the body must be a JSON object such as {"methodName": "get_agent", "args": {}}',
    );
  }
  const b = body as Record<string, unknown>;
  const known = withGas ? CALL_FIELDS : VIEW_FIELDS;
  for (const name of Object.keys(b)) {
    if (!known.includes(name)) {
      const takes = withGas ? 'methodName, args, gas and contractId' : 'methodName, args and contractId';
      throw new HttpError(
        400,
        'invalid_field',
        `unknown field ${JSON.stringify(name.slice(0, 64))}: /${withGas ? 'call' : 'view'} takes ${takes}`,
        name.slice(0, 64),
      );
    }
  }
  if (typeof b.methodName !== 'string' || !/^[A-Za-z0-9_$]{1,256}$/.test(b.methodName)) {
    throw new HttpError(
      400,
      'invalid_field',
      'methodName must be a method name (letters, digits, _)',
      'methodName',
    );
  }
  const args = b.args ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new HttpError(
      400,
      'invalid_field',
      'args must be a JSON object of the method\'s arguments, e.g. {"account_id": "x.near"}',
      'args',
    );
  }
  let contractId = defaultContractId;
  if (b.contractId !== undefined) {
    if (typeof b.contractId !== 'string' || !isValidAccountId(b.contractId)) {
      throw new HttpError(
        400,
        'invalid_field',
        'contractId must be an account id such as agent.test.near, or left out for the agent contract',
        'contractId',
      );
    }
    if (!allowed.has(b.contractId)) {
      throw new HttpError(
        403,
        'contract_not_allowed',
        `contract ${b.contractId} is not allowed: list it in AGENT_API_ALLOW_CONTRACTS, or leave contractId out for the agent contract`,
        'contractId',
      );
    }
    contractId = b.contractId;
  }
  let gas = DEFAULT_GAS;
  if (b.gas !== undefined) {
    if (!withGas) throw new HttpError(400, 'invalid_field', 'a view takes no gas: leave gas out', 'gas');
    const text = typeof b.gas === 'number' && Number.isSafeInteger(b.gas) ? String(b.gas) : b.gas;
    if (
      typeof text !== 'string' ||
      !/^\d{1,20}$/.test(text) ||
      BigInt(text) === 0n ||
      BigInt(text) > MAX_GAS
    ) {
      throw new HttpError(
        400,
        'invalid_field',
        'gas must be a decimal string, 1 ≤ gas ≤ 10^15 (1 PGas)',
        'gas',
      );
    }
    gas = BigInt(text);
  }
  if (b.deposit !== undefined) {
    throw new HttpError(
      400,
      'invalid_field',
      'deposit is not supported: calls attach no deposit; leave deposit out',
      'deposit',
    );
  }
  return { contractId, methodName: b.methodName, args, gas };
}
