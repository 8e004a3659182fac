/**
 * The ECDSA signatures the chain answered recently, for whoever looks for them elsewhere (the CLI's EVM
 * signature watcher: a transaction on the local EVM chain that carries one). A subscriber on the chain's
 * `executed` event keeps each `sign` request (its receipt id, predecessor, path, keyed by tweak and payload) and
 * each `respond` answer (r = x(big_r) mod n, s, the parity of R's y), and joins them. Bounded: the oldest are
 * forgotten past `max` entries.
 */
import { createHash } from 'node:crypto';
import { base58Encode } from '@shadebox/primitives';
import type { Chain } from '../chain/chain.js';
import type { BlockRecord } from '../chain/records.js';
import type { ChunkResult } from '../runtime/apply-chunk.js';

/** secp256k1's group order. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const TWEAK_PREFIX = 'near-mpc-recovery v0.1.0 epsilon derivation:';

export interface EcdsaSignatureParts {
  r: bigint;
  s: bigint;
  /** 0 or 1: the parity of R's y (an EVM transaction's yParity, or its v's). */
  parity: number;
}

export interface AnsweredSignature extends EcdsaSignatureParts {
  /** The `sign` receipt's id (base58): the request. */
  requestReceiptId: string;
  /** Who asked (the key is derived for it and `path`). */
  predecessorId: string;
  path: string;
  /** The block the answer was included in. */
  answeredAt: number;
}

export interface ChainSignatureAnswers {
  /** The answered signature that is `sig`, with s or n − s (and the parity flipped): the same signature. */
  find(sig: EcdsaSignatureParts): AnsweredSignature | undefined;
  /** How many answers are kept. */
  readonly size: number;
  stop(): void;
}

type Json = Record<string, unknown>;
interface Request {
  receiptId: string;
  predecessorId: string;
  path: string;
}

const utf8 = new TextDecoder();

export function rememberChainSignatureAnswers(chain: Chain, max = 1024): ChainSignatureAnswers {
  // tweak|payload → the request; answers keyed by `r:s` (low s).
  const requests = new Map<string, Request>();
  const answers = new Map<string, AnsweredSignature>();
  const pending = new Map<string, Omit<AnsweredSignature, keyof Request | 'requestReceiptId'>>();
  const bound = (map: Map<string, unknown>) => {
    for (const key of map.keys()) {
      if (map.size <= max) break;
      map.delete(key);
    }
  };
  const join = (key: string) => {
    const request = requests.get(key);
    const answer = pending.get(key);
    if (!request || !answer) return;
    pending.delete(key);
    answers.set(`${answer.r}:${answer.s}`, {
      ...answer,
      requestReceiptId: request.receiptId,
      predecessorId: request.predecessorId,
      path: request.path,
    });
    bound(answers);
  };
  const onExecuted = (block: BlockRecord, results: readonly ChunkResult[]) => {
    try {
      for (const result of results) {
        for (const outcome of result.outcomes) {
          const receipt = outcome.receipt;
          if (receipt?.receipt.kind !== 'Action') continue;
          for (const action of receipt.receipt.actions) {
            if (action.type !== 'FunctionCall' || action.methodName !== 'sign') continue;
            const request = parseJson(action.args)?.request as Json | undefined;
            if (typeof request?.path !== 'string') continue;
            const payload = payloadHex(request.payload_v2 ?? request.payload);
            if (payload === undefined) continue;
            const key = `${tweakHex(receipt.predecessorId, request.path)}|${payload}`;
            requests.set(key, {
              receiptId: base58Encode(outcome.id),
              predecessorId: receipt.predecessorId,
              path: request.path,
            });
            bound(requests);
            join(key);
          }
        }
        for (const tx of result.transactions) {
          for (const action of tx.signedTransaction.transaction.actions) {
            if (action.type !== 'FunctionCall' || action.methodName !== 'respond') continue;
            const args = parseJson(action.args);
            const request = args?.request as Json | undefined;
            const sig = ecdsaParts(args?.response);
            // The signer versions spell the request differently (mpc/src/responder/signer-flavor.ts): a hex or
            // 32-number tweak, or v1's `epsilon`; a payload object, or v1's `payload_hash`.
            const tweak = payloadHex(request?.tweak ?? request?.epsilon);
            const payload = payloadHex(request?.payload ?? request?.payload_v2 ?? request?.payload_hash);
            if (!sig || tweak === undefined || payload === undefined) continue;
            const key = `${tweak}|${payload}`;
            pending.set(key, { ...sig, answeredAt: block.height });
            bound(pending);
            join(key);
          }
        }
      }
    } catch {
      // Never in the way of block production: an answer not understood is an answer not remembered.
    }
  };
  chain.on('executed', onExecuted);
  return {
    find(sig) {
      return matchParity(answers.get(`${sig.r}:${sig.s}`), answers.get(`${sig.r}:${N - sig.s}`), sig);
    },
    get size() {
      return answers.size;
    },
    stop: () => {
      chain.off('executed', onExecuted);
    },
  };
}

/** The same s and parity, or the other s and the other parity. */
function matchParity(
  same: AnsweredSignature | undefined,
  flipped: AnsweredSignature | undefined,
  sig: EcdsaSignatureParts,
): AnsweredSignature | undefined {
  if (same && same.parity === sig.parity) return same;
  if (flipped && flipped.parity === (sig.parity ^ 1)) return flipped;
  return undefined;
}

function parseJson(bytes: Uint8Array): Json | undefined {
  try {
    const value = JSON.parse(utf8.decode(bytes));
    return value && typeof value === 'object' ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

function tweakHex(predecessorId: string, path: string): string {
  return createHash('sha3-256').update(`${TWEAK_PREFIX}${predecessorId},${path}`).digest('hex');
}

/** `[32 numbers]`, `{Ecdsa: hex}`, `{Eddsa: hex}`, `{scalar: hex}` or a hex string → lowercase hex, no 0x. */
function payloadHex(payload: unknown): string | undefined {
  if (Array.isArray(payload)) return Buffer.from(payload as number[]).toString('hex');
  const o = payload as Json | null | undefined;
  const value = o && typeof o === 'object' ? (o.Ecdsa ?? o.Eddsa ?? o.scalar) : payload;
  return typeof value === 'string' ? value.toLowerCase().replace(/^0x/, '') : undefined;
}

/** The signer's ECDSA answer (`{big_r: {affine_point}, s: {scalar}, recovery_id}`, possibly with a `scheme`). */
function ecdsaParts(response: unknown): EcdsaSignatureParts | undefined {
  const r = (response ?? {}) as Json;
  const bigR = (r.big_r as Json | undefined)?.affine_point ?? r.big_r;
  const s = (r.s as Json | undefined)?.scalar ?? r.s;
  if (typeof bigR !== 'string' || !/^0[23][0-9a-fA-F]{64}$/.test(bigR)) return undefined;
  if (typeof s !== 'string' || !/^[0-9a-fA-F]{1,64}$/.test(s)) return undefined;
  const recovery =
    typeof r.recovery_id === 'number' ? r.recovery_id : Number.parseInt(bigR.slice(0, 2), 16) - 2;
  return { r: BigInt(`0x${bigR.slice(2)}`) % N, s: BigInt(`0x${s}`), parity: recovery & 1 };
}
