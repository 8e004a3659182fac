/**
 * The signer's sign requests and the responder's answers in the last blocks (scan.ts): a request is a `sign`
 * receipt to the signer (its predecessor, path, payload, domain), an answer a `respond` transaction (tweak,
 * payload, signature); a request's answer is the one with its tweak (derive.ts) and payload.
 */
import { decodeArgs, hex } from './decode.js';
import { tweakOf } from './derive.js';
import type { Json } from './json.js';
import { scanBack } from './scan.js';

export interface SignRequest {
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

export interface SignAnswer {
  txHash: string;
  sender: string;
  tweak: string;
  payload: string;
  response: Json;
  height: number;
}

export interface SignRequests {
  requests: Array<SignRequest & { answer?: SignAnswer }>;
  scanned: number;
}

/** The requests of the last blocks (of one signer, if given), newest first, each with its answer if any. */
export async function signRequests(signerId?: string): Promise<SignRequests> {
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
              // The signer versions spell it differently: a hex or 32-number tweak, or v1's epsilon and
              // payload_hash scalars.
              tweak: payloadHex(args.request.tweak ?? args.request.epsilon),
              payload: payloadHex(
                args.request.payload ?? args.request.payload_v2 ?? args.request.payload_hash,
              ),
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
  return {
    requests: requests.map((r) => {
      const tweak = hex(tweakOf(r.predecessor, r.path));
      return { ...r, answer: answers.find((a) => a.tweak === tweak && a.payload === r.payload) };
    }),
    scanned,
  };
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

/** `[32 numbers]`, `{Ecdsa: hex}`, `{Eddsa: hex}`, `{scalar: hex}` or hex → lowercase hex without 0x. */
function payloadHex(payload: Json): string {
  if (Array.isArray(payload)) return hex(Uint8Array.from(payload));
  const v =
    typeof payload === 'object' && payload ? (payload.Ecdsa ?? payload.Eddsa ?? payload.scalar) : payload;
  return String(v).toLowerCase().replace(/^0x/, '');
}
