/**
 * nearcore's action views (`ActionView` in a transaction or receipt) as short lines: `Transfer 1.5 NEAR`,
 * `FunctionCall set_greeting {"greeting":"hi"}  30 Tgas, deposit 0 NEAR`, `AddKey ed25519:… FullAccess`.
 * An action this file does not know is printed as its name and JSON.
 */
import { formatNear, formatTgas } from './format-units.js';
import { printableText } from './printable-text.js';

/** Longest args text shown; longer ones are cut with `…`. */
const MAX_ARGS_CHARS = 200;

export function describeAction(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action !== 'object' || action === null) return JSON.stringify(action);
  const [name, value] = Object.entries(action)[0] ?? ['?', undefined];
  const v = (value ?? {}) as Record<string, unknown>;
  switch (name) {
    case 'Transfer':
      return `Transfer ${formatNear(String(v.deposit))}`;
    case 'FunctionCall':
      return `FunctionCall ${String(v.method_name)} ${describeArgs(v.args)}  ${formatTgas(String(v.gas))}, deposit ${formatNear(String(v.deposit))}`;
    case 'DeployContract':
      return `DeployContract ${describeCode(v.code)}`;
    case 'AddKey':
      return `AddKey ${String(v.public_key)} ${describePermission((v.access_key as { permission?: unknown })?.permission)}`;
    case 'DeleteKey':
      return `DeleteKey ${String(v.public_key)}`;
    case 'DeleteAccount':
      return `DeleteAccount (beneficiary ${String(v.beneficiary_id)})`;
    case 'Stake':
      return `Stake ${formatNear(String(v.stake))} with ${String(v.public_key)}`;
    case 'Delegate': {
      const d = (v.delegate_action ?? {}) as {
        sender_id?: string;
        receiver_id?: string;
        actions?: unknown[];
      };
      const inner = (d.actions ?? []).map(describeAction).join('; ');
      return `Delegate ${d.sender_id} → ${d.receiver_id}: ${inner}`;
    }
    default:
      return `${name} ${JSON.stringify(value)}`;
  }
}

/** An access key's permission view: `FullAccess`, or `FunctionCall receiver [methods] allowance`. */
export function describePermission(permission: unknown): string {
  if (typeof permission === 'string') return permission;
  const fc = (permission as { FunctionCall?: Record<string, unknown> } | null)?.FunctionCall;
  if (fc === undefined) return JSON.stringify(permission);
  const methods =
    Array.isArray(fc.method_names) && fc.method_names.length > 0 ? fc.method_names.join(', ') : 'any method';
  const allowance =
    fc.allowance === null || fc.allowance === undefined ? 'unlimited' : formatNear(String(fc.allowance));
  return `FunctionCall on ${String(fc.receiver_id)} (${methods}; allowance ${allowance})`;
}

/** base64 args as UTF-8 text when they are text (JSON usually), else their size. */
function describeArgs(args: unknown): string {
  if (typeof args !== 'string' || args === '') return '{}';
  const bytes = Buffer.from(args, 'base64');
  const text = printableText(bytes);
  if (text === undefined) return `(${bytes.length} bytes)`;
  return text.length > MAX_ARGS_CHARS ? `${text.slice(0, MAX_ARGS_CHARS)}…` : text;
}

/** A transaction's view carries sha256(code); a delegated action the code itself. */
function describeCode(value: unknown): string {
  const bytes = Buffer.from(typeof value === 'string' ? value : '', 'base64');
  return bytes.length === 32 ? `(code sha256 ${bytes.toString('hex')})` : `(${bytes.length} bytes of code)`;
}
