/**
 * A `sign` call read from a receipt: its JSON arguments in every form the signer versions take, turned into
 * the request the contract keeps (`{tweak, payload, domain_id}`, here with the tweak as hex):
 *
 * - legacy v1: `{request: {payload: [32 numbers], path, key_version}}` (always ECDSA);
 * - 2.x/3.x and Shadebox's signer: `{request: {payload_v2: {Ecdsa | Eddsa: hex}, path, domain_id}}`, and the
 *   legacy `payload` (32 numbers, ECDSA) and `key_version` (for `domain_id`) they still accept.
 *
 * Arguments the contract refuses anyway (both payload forms, both domain forms, a payload of the wrong size)
 * give null: such a call never yields, so there is nothing to answer.
 */
import { bytesToHex, deriveTweak } from '../derivation.js';
import type { PendingSignatureRequest } from './signature-request.js';

const HEX = /^(0x)?([0-9a-fA-F]{2})*$/;

function isByteArray(v: unknown, length: number): v is number[] {
  return (
    Array.isArray(v) &&
    v.length === length &&
    v.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255)
  );
}

function hexPayload(v: unknown, min: number, max: number): string | null {
  if (typeof v !== 'string' || !HEX.test(v)) return null;
  const hex = (v.startsWith('0x') ? v.slice(2) : v).toLowerCase();
  const bytes = hex.length / 2;
  return bytes >= min && bytes <= max ? hex : null;
}

/** The request a `sign` call with these arguments, made by `predecessorId`, parks in the contract; or null. */
export function signCallRequest(args: unknown, predecessorId: string): PendingSignatureRequest | null {
  const request = (args as { request?: unknown } | null)?.request as Record<string, unknown> | undefined;
  if (!request || typeof request !== 'object' || typeof request.path !== 'string') return null;
  const { payload_v2: payloadV2, payload: legacy, domain_id: domainId, key_version: keyVersion } = request;
  if (payloadV2 !== undefined && legacy !== undefined) return null;
  if (domainId !== undefined && keyVersion !== undefined) return null;
  const domain = domainId ?? keyVersion ?? 0;
  if (!Number.isSafeInteger(domain) || (domain as number) < 0) return null;
  let payload: PendingSignatureRequest['payload'];
  if (payloadV2 !== undefined) {
    const p = payloadV2 as Record<string, unknown> | null;
    const ecdsa = p && 'Ecdsa' in p ? hexPayload(p.Ecdsa, 32, 32) : null;
    // EdDSA payloads are up to 1232 bytes (a Solana transaction); 3.14 dropped the lower bound of 32.
    const eddsa = p && 'Eddsa' in p ? hexPayload(p.Eddsa, 1, 1232) : null;
    if (ecdsa !== null) payload = { Ecdsa: ecdsa };
    else if (eddsa !== null) payload = { Eddsa: eddsa };
    else return null;
  } else if (isByteArray(legacy, 32)) {
    payload = { Ecdsa: bytesToHex(Uint8Array.from(legacy)) };
  } else {
    return null;
  }
  return {
    tweak: bytesToHex(deriveTweak(predecessorId, request.path)),
    payload,
    domain_id: domain as number,
  };
}

/** `signCallRequest` of base64 JSON arguments (as receipts and transactions carry them); null if not JSON. */
export function signCallRequestFromBase64(
  argsBase64: string,
  predecessorId: string,
): PendingSignatureRequest | null {
  let args: unknown;
  try {
    args = JSON.parse(Buffer.from(argsBase64, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  return signCallRequest(args, predecessorId);
}
