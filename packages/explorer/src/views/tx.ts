/**
 * A transaction and its receipt tree (`EXPERIMENTAL_tx_status`): each receipt with its actions, status,
 * failure, logs, gas and tokens burnt, and the receipts it made beneath it.
 */

import { decodeArgs } from '../decode.js';
import { accountLink, blockLink, card, facts, h, link, short } from '../dom.js';
import { gas, near } from '../format.js';
import type { Json } from '../json.js';
import { rpc } from '../rpc.js';
import { findTransactions, SCAN_BLOCKS } from '../scan.js';
import { actionText } from './actions.js';

export async function txView(
  hash: string,
  sender: string | undefined,
  highlight?: string,
): Promise<HTMLElement> {
  let senderId = sender;
  if (!senderId) {
    const { found } = await findTransactions((t) => t.hash === hash, 1);
    if (found.length === 0) throw new Error(`transaction ${hash} is not in the last ${SCAN_BLOCKS} blocks`);
    senderId = found[0].signer_id;
  }
  const status = await rpc('EXPERIMENTAL_tx_status', {
    tx_hash: hash,
    sender_account_id: senderId,
    wait_until: 'NONE',
  });
  if (!status.transaction_outcome) {
    return card(
      `Transaction ${short(hash)}`,
      h('p', null, `not executed yet (${status.final_execution_status})`),
    );
  }
  const tx = status.transaction;
  const txOutcome = status.transaction_outcome;
  const receipts = new Map<string, Json>((status.receipts ?? []).map((r: Json) => [r.receipt_id, r]));
  const outcomes = new Map<string, Json>(status.receipts_outcome.map((o: Json) => [o.id, o]));
  const totalBurnt = [txOutcome, ...status.receipts_outcome].reduce(
    (sum: bigint, o: Json) => sum + BigInt(o.outcome.tokens_burnt),
    0n,
  );
  const totalGas = [txOutcome, ...status.receipts_outcome].reduce(
    (sum: bigint, o: Json) => sum + BigInt(o.outcome.gas_burnt),
    0n,
  );
  const overall = statusText(status.status);
  return h(
    'div',
    null,
    card(
      'Transaction',
      facts([
        ['hash', h('code', null, tx.hash)],
        ['status', h('span', { class: overall.failed ? 'bad' : 'good', 'data-tx-status': '' }, overall.text)],
        ['signer', accountLink(tx.signer_id)],
        ['receiver', accountLink(tx.receiver_id)],
        ['block', blockLink(txOutcome.block_hash)],
        ['nonce', String(tx.nonce)],
        ['public key', h('code', null, tx.public_key)],
        ['gas burnt', gas(totalGas)],
        ['tokens burnt', near(totalBurnt)],
        ['execution', String(status.final_execution_status)],
      ]),
      h('h3', null, 'Actions'),
      h(
        'ul',
        { class: 'plain' },
        tx.actions.map((a: Json) => h('li', null, actionText(a), argsOf(a))),
      ),
    ),
    card(
      'Receipt tree',
      h(
        'ul',
        { class: 'tree', 'data-receipt-tree': '' },
        h(
          'li',
          null,
          outcomeBox('transaction', txOutcome, tx.signer_id, undefined, false, tx.receiver_id),
          children(txOutcome.outcome.receipt_ids, receipts, outcomes, highlight),
        ),
      ),
    ),
  );
}

function children(
  ids: string[],
  receipts: Map<string, Json>,
  outcomes: Map<string, Json>,
  highlight?: string,
): HTMLElement | null {
  if (ids.length === 0) return null;
  return h(
    'ul',
    null,
    ids.map((id): HTMLElement => {
      const o = outcomes.get(id);
      const r = receipts.get(id);
      return h(
        'li',
        null,
        o
          ? outcomeBox(id, o, r?.predecessor_id, r, id === highlight)
          : h('div', { class: 'muted' }, `${short(id)} (pending)`),
        o ? children(o.outcome.receipt_ids, receipts, outcomes, highlight) : null,
      );
    }),
  );
}

function outcomeBox(
  title: string,
  o: Json,
  from: string | undefined,
  receipt: Json,
  highlighted = false,
  to: string = o.outcome.executor_id,
) {
  const s = statusText(o.outcome.status);
  const actions = receipt?.receipt?.Action?.actions;
  const isRefund = receipt && receipt.predecessor_id === 'system';
  return h(
    'div',
    { class: `outcome${s.failed ? ' failed' : ''}${highlighted ? ' highlight' : ''}`, 'data-receipt': o.id },
    h(
      'div',
      { class: 'outcome-head' },
      receipt ? link(`/receipt/${o.id}`, short(o.id), o.id) : h('strong', null, title),
      ' ',
      from ? accountLink(from) : null,
      ' → ',
      accountLink(to),
      receipt ? null : h('span', { class: 'muted small' }, ' (converted to the receipt below)'),
      isRefund ? h('span', { class: 'tag' }, 'refund') : null,
      receipt?.receipt?.Data ? h('span', { class: 'tag' }, 'data') : null,
    ),
    actions
      ? h(
          'div',
          { class: 'small' },
          actions.map((a: Json) => h('div', null, actionText(a), argsOf(a))),
        )
      : null,
    h('div', { class: s.failed ? 'bad' : 'good' }, s.text),
    o.outcome.logs.length
      ? h('pre', { class: 'logs' }, o.outcome.logs.map((l: string) => `${l}\n`).join(''))
      : null,
    h(
      'div',
      { class: 'muted small' },
      `gas burnt ${gas(o.outcome.gas_burnt)} · tokens burnt ${near(o.outcome.tokens_burnt)} · block `,
      blockLink(o.block_hash, short(o.block_hash)),
    ),
  );
}

function argsOf(action: Json) {
  const body = typeof action === 'object' ? action.FunctionCall : undefined;
  if (!body?.args) return null;
  const d = decodeArgs(body.args);
  if (d.text === '' || d.text === '{}') return null;
  return h('pre', { class: 'args' }, d.text.length > 2000 ? `${d.text.slice(0, 2000)}…` : d.text);
}

/** An outcome or final status in one sentence. */
export function statusText(status: Json): { text: string; failed: boolean } {
  if (status === 'Unknown' || status === undefined) return { text: 'unknown', failed: false };
  if ('SuccessValue' in status) {
    if (!status.SuccessValue) return { text: 'succeeded', failed: false };
    const d = decodeArgs(status.SuccessValue);
    // One line: a returned JSON value is shown compact.
    if (d.kind === 'json') d.text = JSON.stringify(JSON.parse(d.text));
    const shown = d.text.length > 300 ? `${d.text.slice(0, 300)}…` : d.text;
    return { text: `succeeded, returned ${shown}`, failed: false };
  }
  if ('SuccessReceiptId' in status)
    return { text: `succeeded, result from receipt ${short(status.SuccessReceiptId)}`, failed: false };
  if ('Failure' in status) return { text: `failed: ${failureText(status.Failure)}`, failed: true };
  return { text: JSON.stringify(status), failed: false };
}

export function failureText(failure: Json): string {
  const action = failure.ActionError;
  if (action) {
    const [kind, info] = Object.entries(action.kind)[0] as [string, Json];
    const where = action.index !== undefined && action.index !== null ? ` (action ${action.index})` : '';
    if (kind === 'FunctionCallError') {
      const [fk, fv] = Object.entries(info)[0] as [string, Json];
      if (fk === 'ExecutionError') return `${fv}${where}`;
      return `${fk}: ${typeof fv === 'string' ? fv : JSON.stringify(fv)}${where}`;
    }
    return `${kind} ${JSON.stringify(info)}${where}`;
  }
  if (failure.InvalidTxError) return `invalid transaction: ${JSON.stringify(failure.InvalidTxError)}`;
  return JSON.stringify(failure);
}
