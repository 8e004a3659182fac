/**
 * EVM transactions as rows (hash, block, status, from → to, value) and the chain-signature requests whose
 * signature they carry (signature-match.ts against the signer's answers of the last NEAR blocks).
 */
import { evmAddressLink, evmTxLink, h, link, short, table } from '../dom.js';
import { type EvmTx, evmReceipt } from '../evm-scan.js';
import { ether } from '../format.js';
import { type SignRequest, signRequests } from '../sign-requests.js';
import { carriesSignature, type EcdsaSignature, ecdsaOfResponse } from '../signature-match.js';

export interface SignedRequest {
  request: SignRequest;
  signature: EcdsaSignature;
}

/** The answered ECDSA requests of the last NEAR blocks, with their signatures. */
export async function signedRequests(): Promise<SignedRequest[]> {
  const { requests } = await signRequests();
  const out: SignedRequest[] = [];
  for (const request of requests) {
    const signature = request.answer && ecdsaOfResponse(request.answer.response);
    if (signature) out.push({ request, signature });
  }
  return out;
}

export const requestCarriedBy = (tx: EvmTx, signed: readonly SignedRequest[]) =>
  signed.find((s) => carriesSignature(tx, s.signature))?.request;

/** "success" / "reverted", read from the receipt. */
export async function statusOf(tx: EvmTx): Promise<HTMLElement> {
  const receipt = await evmReceipt(tx.hash).catch(() => undefined);
  if (!receipt) return h('span', { class: 'muted' }, 'unknown');
  return h(
    'span',
    { class: receipt.status === 'success' ? 'good' : 'bad', 'data-evm-status': '' },
    receipt.status,
  );
}

export function fromTo(tx: EvmTx) {
  return h(
    'span',
    null,
    evmAddressLink(tx.from, true),
    ' → ',
    tx.to ? evmAddressLink(tx.to, true) : h('span', { class: 'muted' }, 'contract creation'),
  );
}

/** A link to the sign request (its receipt) whose signature the transaction carries. */
export function requestLink(request: SignRequest) {
  return h(
    'span',
    { class: 'small', 'data-carries': request.receiptId },
    'signature of ',
    link(`/receipt/${request.receiptId}`, short(request.receiptId), request.receiptId),
    ' (path ',
    h('code', null, request.path || '""'),
    ')',
  );
}

export async function evmTxTable(txs: readonly EvmTx[], signed: readonly SignedRequest[], empty: string) {
  const rows = await Promise.all(
    txs.map(async (tx) => {
      const request = requestCarriedBy(tx, signed);
      return [
        h('span', { 'data-evm-tx': tx.hash }, evmTxLink(tx.hash)),
        String(tx.blockNumber),
        await statusOf(tx),
        fromTo(tx),
        ether(tx.value),
        request ? requestLink(request) : h('span', { class: 'muted' }, '—'),
      ];
    }),
  );
  return table(['transaction', 'block', 'status', 'from → to', 'value', 'chain signature'], rows, empty);
}
