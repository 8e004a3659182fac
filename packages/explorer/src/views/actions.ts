/** Actions in one line each ("transfer 1 NEAR", "call get_agents(…) 30 Tgas, 0 NEAR"). */

import { base58 } from '@scure/base';
import { h } from '../dom.js';
import { gas, near } from '../format.js';
import type { Json } from '../json.js';
import { base64ToBytes } from '../rpc.js';

export function actionText(action: Json): string {
  if (typeof action === 'string') return action === 'CreateAccount' ? 'create account' : action;
  const [kind, body] = Object.entries(action)[0] as [string, Json];
  switch (kind) {
    case 'Transfer':
      return `transfer ${near(body.deposit)}`;
    case 'FunctionCall': {
      const deposit = BigInt(body.deposit) > 0n ? `, ${near(body.deposit)}` : '';
      return `call ${body.method_name}() ${gas(body.gas)}${deposit}`;
    }
    case 'DeployContract':
      // nearcore's view carries the code's hash (base64), not the code.
      return `deploy contract ${base58.encode(base64ToBytes(body.code))}`;
    case 'AddKey':
      return `add key ${body.public_key.slice(0, 18)}… (${body.access_key.permission === 'FullAccess' ? 'full access' : 'function call'})`;
    case 'DeleteKey':
      return `delete key ${body.public_key.slice(0, 18)}…`;
    case 'Stake':
      return `stake ${near(body.stake)}`;
    case 'DeleteAccount':
      return `delete account → ${body.beneficiary_id}`;
    case 'Delegate':
      return `delegate (${body.delegate_action.actions.length} actions as ${body.delegate_action.sender_id})`;
    default:
      return kind;
  }
}

export function actionSummary(actions: Json[]) {
  return h(
    'span',
    { class: 'actions' },
    actions.map((a, i) => [i > 0 ? '; ' : '', actionText(a)]),
  );
}
