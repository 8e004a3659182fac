/**
 * One line per action for the live transaction log: method names with their arguments, amounts in NEAR, keys
 * added with their permission, deploys with their size. Chain-signature calls (`sign`, `respond`) get a second
 * line with the request or the answer (./chain-signature-lines.ts).
 */
import { type Action, publicKeyToString } from '@shadebox/primitives';
import { chainSignatureLine } from './chain-signature-lines.js';
import { formatGas, formatNear } from './format-amounts.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const MAX_ARGS = 160;

/** The lines of `actions`; `predecessorId` is who calls (a `sign` request's tweak is derived from it). */
export function describeActions(actions: readonly Action[], predecessorId: string): string[] {
  const lines: string[] = [];
  for (const action of actions) {
    lines.push(describeAction(action));
    if (action.type === 'FunctionCall') {
      const extra = chainSignatureLine(action.methodName, parseJsonArgs(action.args), predecessorId);
      if (extra) lines.push(extra);
    }
  }
  return lines;
}

function describeAction(action: Action): string {
  switch (action.type) {
    case 'CreateAccount':
      return 'CreateAccount';
    case 'DeployContract':
      return `DeployContract ${action.code.length.toLocaleString('en-US')} bytes`;
    case 'FunctionCall': {
      const deposit = action.deposit === 0n ? '' : `, deposit ${formatNear(action.deposit)}`;
      return `call ${action.methodName}(${argsText(action.args)}) ${formatGas(action.gas)}${deposit}`;
    }
    case 'Transfer':
      return `Transfer ${formatNear(action.deposit)}`;
    case 'Stake':
      return `Stake ${formatNear(action.stake)} with ${publicKeyToString(action.publicKey)}`;
    case 'AddKey': {
      const p = action.accessKey.permission;
      const gasKey = p.kind === 'GasKeyFullAccess' || p.kind === 'GasKeyFunctionCall' ? 'gas key, ' : '';
      const permission =
        p.kind === 'FullAccess' || p.kind === 'GasKeyFullAccess'
          ? 'full access'
          : `function call on ${p.receiverId}${p.methodNames.length ? ` (${p.methodNames.join(', ')})` : ''}${
              p.allowance === null ? '' : `, allowance ${formatNear(p.allowance)}`
            }`;
      return `AddKey ${publicKeyToString(action.publicKey)} (${gasKey}${permission})`;
    }
    case 'DeleteKey':
      return `DeleteKey ${publicKeyToString(action.publicKey)}`;
    case 'DeleteAccount':
      return `DeleteAccount, balance to ${action.beneficiaryId}`;
    case 'Delegate': {
      const d = action.signedDelegateAction.delegateAction;
      const inner = describeActions(d.actions, d.senderId).map((line) => `  ${line}`);
      return [`Delegate from ${d.senderId} to ${d.receiverId}:`, ...inner].join('\n');
    }
    default:
      // Actions added by later protocol versions: their name is enough for a log.
      return String((action as { type: unknown }).type);
  }
}

/** Function-call arguments as JSON when they are, else their size. */
function argsText(args: Uint8Array): string {
  if (args.length === 0) return '';
  let text: string;
  try {
    text = utf8.decode(args);
    JSON.parse(text);
  } catch {
    return `${args.length} bytes`;
  }
  return text.length > MAX_ARGS ? `${text.slice(0, MAX_ARGS)}…` : text;
}

function parseJsonArgs(args: Uint8Array): unknown {
  try {
    return JSON.parse(utf8.decode(args));
  } catch {
    return undefined;
  }
}
