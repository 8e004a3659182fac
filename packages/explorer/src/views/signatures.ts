/**
 * The signer's sign requests and the responder's answers, from the last blocks (sign-requests.ts). The derived
 * key and its EVM, Bitcoin (testnet) or Solana address are computed here from the signer's `public_key` view
 * (derive.ts). With a local EVM chain (settings.ts), each ECDSA answer shows the EVM transactions of its last
 * blocks that carry the signature (signature-match.ts), and the derived EVM address links to its page.
 */

import { hex } from '../decode.js';
import { BITCOIN_NETWORK, deriveAddresses } from '../derive.js';
import {
  accountLink,
  blockLink,
  card,
  errorBox,
  evmAddressLink,
  evmTxLink,
  h,
  link,
  short,
  table,
} from '../dom.js';
import { EVM_SCAN_BLOCKS, type EvmTx, findEvmTransactions } from '../evm-scan.js';
import { ether } from '../format.js';
import type { Json } from '../json.js';
import { viewJson } from '../rpc.js';
import { SCAN_BLOCKS } from '../scan.js';
import { evmSettings } from '../settings.js';
import { signRequests } from '../sign-requests.js';
import { carriesSignature, ecdsaOfResponse } from '../signature-match.js';
import { fromTo, statusOf } from './evm-txs.js';

export async function signaturesView(signerId: string | undefined): Promise<HTMLElement> {
  const [{ requests, scanned }, evm] = await Promise.all([signRequests(signerId), evmSettings()]);
  const signers = [...new Set(requests.map((r) => r.signer))];
  const roots = new Map<string, Array<string | undefined>>();
  await Promise.all(
    signers.map(async (s) =>
      roots.set(s, [
        await viewJson(s, 'public_key', { domain_id: 0 }).catch(() => undefined),
        await viewJson(s, 'public_key', { domain_id: 1 }).catch(() => undefined),
      ]),
    ),
  );
  // The EVM transactions carrying each answer's signature: one scan of the EVM chain's last blocks.
  const signatures = requests.map((r) => (r.answer ? ecdsaOfResponse(r.answer.response) : undefined));
  const carriers = new Map<number, EvmTx[]>();
  let evmScan: { scanned: number } | { error: unknown } | undefined;
  if (evm && signatures.some(Boolean)) {
    try {
      const { scanned: evmScanned } = await findEvmTransactions((tx) => {
        signatures.forEach((sig, i) => {
          if (sig && carriesSignature(tx, sig)) carriers.set(i, [...(carriers.get(i) ?? []), tx]);
        });
        return false;
      });
      evmScan = { scanned: evmScanned };
    } catch (error) {
      evmScan = { error };
    }
  }
  const rows = await Promise.all(
    requests.map(async (r, i) => {
      const answer = r.answer;
      const root = roots.get(r.signer)?.[r.domain];
      let derived: Json;
      try {
        derived = root ? deriveAddresses(root, r.predecessor, r.path) : undefined;
      } catch (error) {
        derived = { error };
      }
      const used = await Promise.all((carriers.get(i) ?? []).map(evmTxBox));
      return [
        h(
          'div',
          null,
          blockLink(r.height),
          h('div', { class: 'small' }, link(`/receipt/${r.receiptId}`, short(r.receiptId), r.receiptId)),
        ),
        h(
          'div',
          null,
          accountLink(r.predecessor),
          h('div', { class: 'small' }, 'path ', h('code', null, r.path || '""')),
          r.origin !== r.predecessor
            ? h('div', { class: 'small muted' }, 'for ', accountLink(r.origin))
            : null,
        ),
        h(
          'div',
          null,
          r.domain === 0 ? 'secp256k1 (ECDSA)' : 'ed25519 (EdDSA)',
          h('div', { class: 'small' }, h('code', { class: 'wrap' }, r.payload)),
        ),
        derived?.error
          ? errorBox(derived.error)
          : derived
            ? h(
                'div',
                { class: 'addresses', 'data-derived': '' },
                derived.evm
                  ? h(
                      'div',
                      null,
                      'EVM ',
                      h('code', { 'data-evm': '' }, evm ? evmAddressLink(derived.evm) : derived.evm),
                    )
                  : null,
                derived.bitcoin
                  ? h(
                      'div',
                      null,
                      'Bitcoin ',
                      h('code', { 'data-bitcoin': '' }, derived.bitcoin),
                      h(
                        'span',
                        { class: 'tag', title: 'P2WPKH address on Bitcoin testnet' },
                        BITCOIN_NETWORK,
                      ),
                    )
                  : null,
                derived.solana ? h('div', null, 'Solana ', h('code', null, derived.solana)) : null,
                h('div', { class: 'small muted' }, h('code', { class: 'wrap' }, derived.publicKey)),
              )
            : h('span', { class: 'muted' }, 'no root key'),
        answer
          ? h(
              'div',
              { class: 'good', 'data-answered': '' },
              'signed by ',
              accountLink(answer.sender),
              h(
                'div',
                { class: 'small' },
                link(`/tx/${answer.txHash}?sender=${answer.sender}`, short(answer.txHash)),
                ` in block ${answer.height}`,
              ),
              h('pre', { class: 'args' }, signatureText(answer.response)),
              ...used,
            )
          : h('span', { class: 'muted' }, 'no answer in these blocks'),
      ];
    }),
  );
  const evmNote = !evm
    ? ' No local EVM chain runs, so no EVM transactions are looked for.'
    : evmScan && 'error' in evmScan
      ? ''
      : ` Each ECDSA answer lists the transactions of the EVM chain’s last ${
          evmScan?.scanned ?? 0
        } blocks that carry its signature (at most ${EVM_SCAN_BLOCKS} are read).`;
  return card(
    `Chain signatures${signerId ? ` of ${signerId}` : ''} (last ${scanned} blocks)`,
    h(
      'p',
      { class: 'muted small' },
      `Requests are the signer’s sign receipts; answers the responder’s respond transactions. Addresses are derived in this page from the signer’s public_key and (predecessor, path). At most ${SCAN_BLOCKS} blocks are read.${evmNote}`,
    ),
    evmScan && 'error' in evmScan ? errorBox(evmScan.error) : null,
    table(
      ['block', 'requested by', 'domain · payload', 'derived address', 'response'],
      rows,
      'no sign request in these blocks',
    ),
  );
}

/** An EVM transaction that carries the signature: hash, block, status, from → to, value. */
async function evmTxBox(tx: EvmTx) {
  return h(
    'div',
    { class: 'evm-carrier', 'data-evm-carrier': tx.hash },
    h('div', { class: 'small muted' }, 'used on the EVM chain'),
    h('div', null, 'tx ', evmTxLink(tx.hash), ` in block ${tx.blockNumber} · `, await statusOf(tx)),
    h('div', { class: 'small' }, fromTo(tx), ` · ${ether(tx.value)}`),
  );
}

function signatureText(response: Json): string {
  if (response.scheme === 'Ed25519' || Array.isArray(response.signature)) {
    return `ed25519 ${hex(Uint8Array.from(response.signature))}`;
  }
  return `big_r ${response.big_r?.affine_point}\ns ${response.s?.scalar}\nrecovery_id ${response.recovery_id}`;
}
