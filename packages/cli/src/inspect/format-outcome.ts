/**
 * A transaction's final execution outcome (the answer of `tx`, `EXPERIMENTAL_tx_status` or `send_tx`) as text:
 * the transaction (hash, signer → receiver, actions, status in a sentence, gas and tokens burnt) and the tree
 * of its receipts, each with its executor, actions (when the answer holds the receipts), status, gas and logs.
 */
import { describeAction } from './describe-actions.js';
import { describeFailure } from './describe-failure.js';
import { formatNear, formatTgas } from './format-units.js';
import { printableText } from './printable-text.js';
import { formatRows, type Row } from './text-table.js';

/** The parts of nearcore's `FinalExecutionOutcomeView` (plus `receipts` from the EXPERIMENTAL form) read here. */
export interface FinalOutcomeView {
  final_execution_status?: string;
  status?: unknown;
  transaction?: {
    hash: string;
    signer_id: string;
    receiver_id: string;
    public_key?: string;
    nonce?: number;
    actions?: unknown[];
  };
  transaction_outcome?: OutcomeWithId;
  receipts_outcome?: OutcomeWithId[];
  receipts?: Array<{
    receipt_id: string;
    predecessor_id: string;
    receiver_id: string;
    receipt?: { Action?: { actions?: unknown[] }; Data?: unknown };
  }>;
}

export interface OutcomeWithId {
  id: string;
  block_hash: string;
  outcome: {
    logs: string[];
    receipt_ids: string[];
    gas_burnt: number | string;
    tokens_burnt: string;
    executor_id: string;
    status: unknown;
  };
}

/** The longest result shown in full; a longer one is cut with `…`. */
const MAX_RESULT_CHARS = 500;

/**
 * The outcome as text. `blockHeight` is the height of the transaction's block, when the caller looked it up.
 */
export function formatOutcome(view: FinalOutcomeView, blockHeight?: number): string {
  const tx = view.transaction;
  const txOutcome = view.transaction_outcome;
  const receipts = view.receipts_outcome ?? [];
  let gas = BigInt(txOutcome?.outcome.gas_burnt ?? 0);
  let tokens = BigInt(txOutcome?.outcome.tokens_burnt ?? 0);
  for (const r of receipts) {
    gas += BigInt(r.outcome.gas_burnt);
    tokens += BigInt(r.outcome.tokens_burnt);
  }
  const rows: Row[] = [
    ['Transaction', tx?.hash ?? txOutcome?.id ?? '?'],
    ['From → to', tx ? `${tx.signer_id} → ${tx.receiver_id}` : '?'],
    ['Status', describeStatus(view.status)],
  ];
  if (view.final_execution_status) rows.push(['Reached', view.final_execution_status]);
  if (txOutcome) {
    rows.push([
      'Block',
      blockHeight === undefined ? txOutcome.block_hash : `${blockHeight} (${txOutcome.block_hash})`,
    ]);
  }
  if (tx?.public_key) rows.push(['Signed with', `${tx.public_key} (nonce ${tx.nonce})`]);
  const actions = tx?.actions ?? [];
  actions.forEach((a, i) => {
    rows.push([i === 0 ? 'Actions' : '', describeAction(a)]);
  });
  rows.push(['Gas burnt', formatTgas(gas)], ['Tokens burnt', formatNear(tokens)]);
  let text = formatRows(rows);
  if (txOutcome && receipts.length > 0) {
    text += 'Receipts\n';
    const byId = new Map(receipts.map((r) => [r.id, r]));
    const printed = new Set<string>();
    for (const id of txOutcome.outcome.receipt_ids) text += formatReceiptTree(id, view, byId, printed, 1);
    // Receipts outside the tree (none in a well-formed answer) are still shown.
    for (const r of receipts) if (!printed.has(r.id)) text += formatReceiptTree(r.id, view, byId, printed, 1);
  }
  return text;
}

/** An execution status: `succeeded, returned …`, `failed: …`, `pending`. */
export function describeStatus(status: unknown): string {
  if (status === undefined || status === 'NotStarted' || status === 'Started') return 'pending';
  if (status === 'Unknown') return 'unknown';
  if (typeof status !== 'object' || status === null) return String(status);
  const s = status as Record<string, unknown>;
  if ('Failure' in s) return `failed: ${describeFailure(s.Failure)}`;
  if ('SuccessReceiptId' in s) return `succeeded, result from receipt ${String(s.SuccessReceiptId)}`;
  if ('SuccessValue' in s) {
    const value = describeReturnValue(String(s.SuccessValue ?? ''));
    return value === '' ? 'succeeded' : `succeeded, returned ${value}`;
  }
  return JSON.stringify(status);
}

/** A base64 return value as its text (JSON usually), or its size when it is not text. */
export function describeReturnValue(base64: string): string {
  if (base64 === '') return '';
  const bytes = Buffer.from(base64, 'base64');
  const text = printableText(bytes);
  if (text === undefined) {
    return `(${bytes.length} bytes: 0x${bytes.toString('hex').slice(0, 64)}${bytes.length > 32 ? '…' : ''})`;
  }
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}…` : text;
}

function formatReceiptTree(
  id: string,
  view: FinalOutcomeView,
  byId: Map<string, OutcomeWithId>,
  printed: Set<string>,
  depth: number,
): string {
  if (printed.has(id)) return '';
  printed.add(id);
  const indent = '  '.repeat(depth);
  const r = byId.get(id);
  if (r === undefined) return `${indent}${id}  (not executed yet)\n`;
  const receipt = view.receipts?.find((x) => x.receipt_id === id);
  const from = receipt ? `${receipt.predecessor_id} → ` : '';
  let text = `${indent}${id}  ${from}${r.outcome.executor_id}\n`;
  const inner = `${indent}    `;
  const actions = receipt?.receipt?.Action?.actions;
  const rows: Row[] = [];
  if (actions)
    for (const [i, a] of actions.entries()) rows.push([i === 0 ? 'actions' : '', describeAction(a)]);
  else if (receipt?.receipt?.Data !== undefined) rows.push(['data', 'a data receipt']);
  rows.push(['status', describeStatus(r.outcome.status)]);
  rows.push(['burnt', `${formatTgas(r.outcome.gas_burnt)}, ${formatNear(r.outcome.tokens_burnt)}`]);
  for (const [i, log] of r.outcome.logs.entries()) rows.push([i === 0 ? 'logs' : '', log]);
  text += formatRows(rows, inner);
  for (const child of r.outcome.receipt_ids) text += formatReceiptTree(child, view, byId, printed, depth + 1);
  return text;
}
