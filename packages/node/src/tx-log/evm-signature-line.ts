/**
 * The transaction log's line for a chain signature used on the local EVM chain: a transaction there carries
 * the signature the signer answered for a request (found by the CLI's EVM signature watcher). Hash and
 * request id are printed whole: both can be pasted into the explorer's search.
 */
import type { AnsweredSignature } from './chain-signature-answers.js';
import { type Colours, NO_COLOURS } from './colours.js';

export interface EvmSignatureUse {
  /** The EVM transaction's hash (`0x…`). */
  txHash: string;
  blockNumber: number;
  /** From its receipt: 1 is success, 0 reverted; unknown when the receipt could not be read. */
  status: 'success' | 'reverted' | 'unknown';
  answer: Pick<AnsweredSignature, 'requestReceiptId' | 'predecessorId' | 'path'>;
}

/** `evm  0x… in block 12 carries the signature for request <id> (agent.test.near, path "ethereum-1") — success`,
 * with its newline. */
export function evmSignatureLine(use: EvmSignatureUse, c: Colours = NO_COLOURS): string {
  const { answer } = use;
  const status =
    use.status === 'success'
      ? c.ok('success')
      : use.status === 'reverted'
        ? c.failure('reverted')
        : 'status unknown';
  return `${c.heading('evm')}  ${use.txHash} in block ${use.blockNumber} carries the signature for request ${
    answer.requestReceiptId
  } (${answer.predecessorId}, path ${JSON.stringify(answer.path)}) — ${status}\n`;
}
