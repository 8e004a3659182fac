/**
 * The signer's sign requests and the responder's answers, from the last blocks (scan.ts): a request is a
 * `sign` receipt to the signer (its predecessor, path, payload, domain), an answer a `respond` transaction
 * (tweak, payload, signature); they are matched by tweak and payload. The derived key and its EVM, Bitcoin
 * or Solana address are computed here from the signer's `public_key` view (derive.ts).
 */

import { decodeArgs, hex } from '../decode.js';
import { BITCOIN_NETWORK, deriveAddresses, tweakOf } from '../derive.js';
import { accountLink, blockLink, card, errorBox, h, link, short, table } from '../dom.js';
import type { Json } from '../json.js';
import { viewJson } from '../rpc.js';
import { SCAN_BLOCKS, scanBack } from '../scan.js';

interface SignRequest {
  receiptId: string;
  signer: string;
  predecessor: string;
  /** Who signed the transaction the request came from. */
  origin: string;
  path: string;
  domain: number;
  payload: string;
  height: number;
}
interface SignAnswer {
  txHash: string;
  sender: string;
  tweak: string;
  payload: string;
  response: Json;
  height: number;
}

export async function signaturesView(signerId: string | undefined): Promise<HTMLElement> {
  const requests: SignRequest[] = [];
  const answers: SignAnswer[] = [];
  const seen = new Set<string>();
  const scanned = await scanBack((block) => {
    for (const chunk of block.chunks) {
      for (const r of chunk.receipts) {
        if (seen.has(r.receipt_id) || (signerId && r.receiver_id !== signerId)) continue;
        for (const a of r.receipt.Action?.actions ?? []) {
          if (a.FunctionCall?.method_name !== 'sign') continue;
          const req = parseSign(a.FunctionCall.args);
          if (!req) continue;
          seen.add(r.receipt_id);
          requests.push({
            receiptId: r.receipt_id,
            signer: r.receiver_id,
            predecessor: r.predecessor_id,
            origin: r.receipt.Action.signer_id,
            height: block.height,
            ...req,
          });
        }
      }
      for (const t of chunk.transactions) {
        if (signerId && t.receiver_id !== signerId) continue;
        for (const a of t.actions) {
          if (a.FunctionCall?.method_name !== 'respond') continue;
          try {
            const args = JSON.parse(decodeArgs(a.FunctionCall.args).text);
            answers.push({
              txHash: t.hash,
              sender: t.signer_id,
              tweak: String(args.request.tweak).toLowerCase(),
              payload: payloadHex(args.request.payload ?? args.request.payload_v2),
              response: args.response,
              height: block.height,
            });
          } catch {
            // not the signer's respond
          }
        }
      }
    }
    return false;
  });
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
  const rows = requests.map((r) => {
    const tweak = hex(tweakOf(r.predecessor, r.path));
    const answer = answers.find((a) => a.tweak === tweak && a.payload === r.payload);
    const root = roots.get(r.signer)?.[r.domain];
    let derived: Json;
    try {
      derived = root ? deriveAddresses(root, r.predecessor, r.path) : undefined;
    } catch (error) {
      derived = { error };
    }
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
        r.origin !== r.predecessor ? h('div', { class: 'small muted' }, 'for ', accountLink(r.origin)) : null,
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
              derived.evm ? h('div', null, 'EVM ', h('code', { 'data-evm': '' }, derived.evm)) : null,
              derived.bitcoin
                ? h(
                    'div',
                    null,
                    'Bitcoin ',
                    h('code', { 'data-bitcoin': '' }, derived.bitcoin),
                    h('span', { class: 'tag', title: 'P2WPKH address on Bitcoin testnet' }, BITCOIN_NETWORK),
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
          )
        : h('span', { class: 'muted' }, 'no answer in these blocks'),
    ];
  });
  return card(
    `Chain signatures${signerId ? ` of ${signerId}` : ''} (last ${scanned} blocks)`,
    h(
      'p',
      { class: 'muted small' },
      `Requests are the signer’s sign receipts; answers the responder’s respond transactions. Addresses are derived in this page from the signer’s public_key and (predecessor, path). At most ${SCAN_BLOCKS} blocks are read.`,
    ),
    table(
      ['block', 'requested by', 'domain · payload', 'derived address', 'response'],
      rows,
      'no sign request in these blocks',
    ),
  );
}

function parseSign(base64: string): { path: string; domain: number; payload: string } | undefined {
  try {
    const req = JSON.parse(decodeArgs(base64).text).request;
    const domain = Number(req.domain_id ?? req.key_version ?? 0);
    return { path: String(req.path), domain, payload: payloadHex(req.payload_v2 ?? req.payload) };
  } catch {
    return undefined;
  }
}

/** `[32 numbers]`, `{Ecdsa: hex}` or `{Eddsa: hex}` → lowercase hex. */
function payloadHex(payload: Json): string {
  if (Array.isArray(payload)) return hex(Uint8Array.from(payload));
  const v = payload.Ecdsa ?? payload.Eddsa;
  return String(v).toLowerCase();
}

function signatureText(response: Json): string {
  if (response.scheme === 'Ed25519' || Array.isArray(response.signature)) {
    return `ed25519 ${hex(Uint8Array.from(response.signature))}`;
  }
  return `big_r ${response.big_r?.affine_point}\ns ${response.s?.scalar}\nrecovery_id ${response.recovery_id}`;
}
