/**
 * Chain signatures in the live transaction log: a `sign` call's request (path, domain, payload) and a
 * `respond` call's answer, read from their JSON arguments in the forms the signer versions take
 * (`payload_v2: {Ecdsa|Eddsa: hex}` or the legacy 32-number `payload`; `domain_id` or `key_version`). The
 * resumed yield (the signer's callback returning the signature) is an ordinary receipt: its entry says so.
 */

type Json = Record<string, unknown>;

const DOMAINS: Record<number, string> = { 0: 'secp256k1/ECDSA', 1: 'ed25519/EdDSA' };

/** A second line for a `sign` or `respond` call, or undefined for any other call. */
export function chainSignatureLine(method: string, args: unknown, predecessorId: string): string | undefined {
  const a = (args ?? {}) as Json;
  const request = a.request as Json | undefined;
  if (!request || typeof request !== 'object') return undefined;
  if (method === 'sign' && typeof request.path === 'string') {
    const domain = Number(request.domain_id ?? request.key_version ?? 0);
    return `chain signature request from ${predecessorId}: path "${request.path}", domain ${domain} (${
      DOMAINS[domain] ?? 'unknown'
    }), payload ${payloadText(request.payload_v2 ?? request.payload)}`;
  }
  if (method === 'respond' && a.response !== undefined) {
    const payload = payloadText(request.payload ?? request.payload_v2 ?? request.payload_hash);
    return `chain signature answer for payload ${payload}: ${signatureText(a.response)}`;
  }
  return undefined;
}

function payloadText(payload: unknown): string {
  if (Array.isArray(payload)) return `0x${Buffer.from(payload as number[]).toString('hex')}`;
  if (typeof payload === 'string') return hex(payload);
  if (payload && typeof payload === 'object') {
    const [kind, value] = Object.entries(payload as Json)[0] ?? [];
    if (typeof value === 'string') return `${hex(value)} (${kind})`;
  }
  return JSON.stringify(payload) ?? 'none';
}

function hex(text: string): string {
  const bare = text.startsWith('0x') ? text.slice(2) : text;
  return bare.length > 72 ? `0x${bare.slice(0, 64)}… (${bare.length / 2} bytes)` : `0x${bare}`;
}

function signatureText(response: unknown): string {
  const r = (response ?? {}) as Json;
  // ECDSA: {big_r: {affine_point}, s: {scalar}, recovery_id}, possibly under {scheme: "Secp256k1", ...}.
  const bigR = (r.big_r as Json | undefined)?.affine_point ?? r.big_r;
  const s = (r.s as Json | undefined)?.scalar ?? r.s;
  if (bigR !== undefined && s !== undefined) {
    return `ECDSA big_r ${String(bigR)}, s ${String(s)}, recovery_id ${String(r.recovery_id)}`;
  }
  if (Array.isArray(r.signature)) {
    return `EdDSA signature 0x${Buffer.from(r.signature as number[]).toString('hex')}`;
  }
  const text = JSON.stringify(response);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
