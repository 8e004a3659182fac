/**
 * The live transaction log's entries for one block: one per transaction included and one per receipt
 * executed, in execution order (each shard's transactions, then its receipts), and one per transaction
 * dropped at inclusion. An entry is a heading line (height, kind, hash, signer → receiver) and indented
 * lines: the actions, the contract's logs, the status (the failure as a sentence) with gas and tokens burnt.
 * Gas refunds (receipts from `system`) are left out: every call has one. The receipt a transaction became
 * names its transaction instead of repeating the actions (`origins`, kept by the caller across blocks).
 */
import { type Action, base58Encode, type Receipt, type SignedTransaction } from '@shadebox/primitives';
import type { ChunkResult, Outcome, PendingTransaction } from '../runtime/apply-chunk.js';
import { type Colours, NO_COLOURS } from './colours.js';
import { describeActions } from './describe-actions.js';
import { failureSentence } from './failure-sentence.js';
import { formatGas, formatNear } from './format-amounts.js';

const INDENT = '    ';
const MAX_VALUE = 200;

/** A short form of a base58 hash: its first 8 characters. */
export function shortHash(hash: string): string {
  return `${hash.slice(0, 8)}…`;
}

/** The entries of block `height` from its chunks' results (the text, with a newline after each line). */
export function formatBlockEntries(
  height: number,
  results: readonly ChunkResult[],
  colours: Colours = NO_COLOURS,
  /** Receipt id → the hash of the transaction it was converted from; entries are added and taken here. */
  origins: Map<string, string> = new Map(),
): string {
  const entries: string[] = [];
  for (const result of results) {
    const txByHash = new Map<string, PendingTransaction>();
    for (const tx of result.transactions) txByHash.set(base58Encode(tx.hash), tx);
    for (const outcome of result.outcomes) {
      const id = base58Encode(outcome.id);
      if (outcome.receipt) {
        if (outcome.receipt.predecessorId === 'system') continue;
        const origin = origins.get(id);
        origins.delete(id);
        entries.push(receiptEntry(height, id, outcome.receipt, outcome, colours, origin));
      } else {
        const tx = txByHash.get(id);
        if (!tx) continue;
        entries.push(transactionEntry(height, id, tx.signedTransaction, outcome, colours));
        if ('SuccessReceiptId' in outcome.status)
          origins.set(base58Encode(outcome.status.SuccessReceiptId), id);
      }
    }
    for (const dropped of result.dropped) {
      entries.push(
        `${colours.heading(`#${height} tx ${base58Encode(dropped.hash)}`)}\n${INDENT}${colours.failure(
          `dropped: ${failureSentence({ InvalidTxError: dropped.error.json })}`,
        )}\n`,
      );
    }
  }
  return entries.join('');
}

function transactionEntry(
  height: number,
  hash: string,
  signed: SignedTransaction,
  outcome: Outcome,
  c: Colours,
): string {
  const t = signed.transaction;
  const lines = [
    c.heading(`#${height} tx ${hash}  ${t.signerId} → ${t.receiverId}`),
    ...indent(describeActions(t.actions, t.signerId)),
    ...body(outcome, c),
  ];
  return `${lines.join('\n')}\n`;
}

function receiptEntry(
  height: number,
  id: string,
  receipt: Receipt,
  outcome: Outcome,
  c: Colours,
  /** The transaction it was converted from, if it was. */
  origin: string | undefined,
): string {
  const r = receipt.receipt;
  const of = origin === undefined ? '' : ` of tx ${shortHash(origin)}`;
  const lines = [
    c.heading(`#${height} receipt ${shortHash(id)}${of}  ${receipt.predecessorId} → ${receipt.receiverId}`),
  ];
  if (r.kind === 'Action') {
    if (r.isPromiseYield) {
      lines.push(`${INDENT}yield resumed: the callback of a yielded promise (a sign request: its answer)`);
    }
    // A transaction's receipt carries the transaction's actions, printed just before.
    if (origin === undefined)
      lines.push(...indent(describeActions(r.actions as Action[], receipt.predecessorId)));
  }
  lines.push(...body(outcome, c));
  return `${lines.join('\n')}\n`;
}

/** The logs and the status line of an outcome. */
function body(outcome: Outcome, c: Colours): string[] {
  const lines = outcome.logs.map((log) => `${INDENT}${c.log(`log: ${log}`)}`);
  const cost = c.dim(`gas ${formatGas(outcome.gasBurnt)}, burnt ${formatNear(outcome.tokensBurnt)}`);
  lines.push(`${INDENT}${statusText(outcome, c)}  ${cost}`);
  return lines;
}

function statusText(outcome: Outcome, c: Colours): string {
  const s = outcome.status;
  if ('Failure' in s) return c.failure(`failed: ${failureSentence(s.Failure)}`);
  if ('SuccessReceiptId' in s) return c.ok(`ok → receipt ${shortHash(base58Encode(s.SuccessReceiptId))}`);
  return c.ok(s.SuccessValue === '' ? 'ok' : `ok, returned ${valueText(s.SuccessValue)}`);
}

/** A return value (base64) as text when it is UTF-8, else its size. */
function valueText(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes) || bytes.some(isControlByte)) {
    return `${bytes.length} bytes`;
  }
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}

/** Bytes that make a value binary rather than text (controls other than tab and line breaks). */
function isControlByte(b: number): boolean {
  return b < 0x09 || (b > 0x0d && b < 0x20);
}

function indent(lines: readonly string[]): string[] {
  return lines.flatMap((line) => line.split('\n')).map((line) => `${INDENT}${line}`);
}
