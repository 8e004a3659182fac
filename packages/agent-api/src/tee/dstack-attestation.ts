/**
 * The Shade Agent Framework 2.0 attestation of an agent running on dstack, in the shape ShadeClient
 * (@neardefi/shade-agent-js 2.x) sends to `register_agent({attestation})` from a TEE (shade-attestation's
 * DstackAttestation as JSON): `quote` as an array of bytes, over report data = the implicit account's 32 bytes
 * zero-padded to 64; `collateral` with Intel's collateral fields (the byte fields in hex); `tcb_info` with the
 * fields of dstack's Info answer. ShadeClient fetches the collateral from Phala's verification endpoint; the agent
 * API does not reach out: it sends the guest agent's collateral when the quote answer holds one, else every field
 * empty (the local dstack's quotes are simulated and have none; no contract here verifies collateral).
 */
import { TeeError } from './tee-error.js';

export interface DstackEventLogEntry {
  imr: number;
  event_type: number;
  digest: string;
  event: string;
  event_payload: string;
}

export interface DstackAttestation2 {
  quote: number[];
  collateral: Record<(typeof COLLATERAL_FIELDS)[number], string>;
  tcb_info: {
    mrtd: string;
    rtmr0: string;
    rtmr1: string;
    rtmr2: string;
    rtmr3: string;
    os_image_hash: string;
    compose_hash: string;
    device_id: string;
    app_compose: string;
    event_log: DstackEventLogEntry[];
  };
}

export const COLLATERAL_FIELDS = [
  'pck_crl_issuer_chain',
  'root_ca_crl',
  'pck_crl',
  'tcb_info_issuer_chain',
  'tcb_info',
  'tcb_info_signature',
  'qe_identity_issuer_chain',
  'qe_identity',
  'qe_identity_signature',
] as const;

/** The report data a 2.0 contract expects: the implicit account id's 32 bytes, then 32 zero bytes. */
export function reportDataFor(accountId: string): Buffer {
  if (!/^[0-9a-f]{64}$/.test(accountId))
    throw new TeeError(
      `a 2.0 attestation binds an implicit account (64 hex digits), not ${accountId}`,
      'dstack',
    );
  const data = Buffer.alloc(64);
  Buffer.from(accountId, 'hex').copy(data);
  return data;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The attestation from a GetQuote answer and an Info answer's tcb_info (an object or its JSON text). */
export function dstackAttestation2(
  quote: { quote: unknown; collateral?: unknown },
  tcbInfo: unknown,
): DstackAttestation2 {
  const quoteHex = text(quote.quote).replace(/^0x/, '');
  if (quoteHex === '' || quoteHex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(quoteHex))
    throw new TeeError(
      'dstack GetQuote returned no quote: check the dstack guest agent at DSTACK_ENDPOINT',
      'dstack',
    );
  let info: Record<string, unknown>;
  try {
    info = (typeof tcbInfo === 'string' ? JSON.parse(tcbInfo) : tcbInfo) as Record<string, unknown>;
  } catch {
    info = {};
  }
  if (info === null || typeof info !== 'object' || !Array.isArray(info.event_log))
    throw new TeeError(
      'dstack Info returned no tcb_info with an event log: check the dstack guest agent at DSTACK_ENDPOINT',
      'dstack',
    );
  const given = (quote.collateral ?? {}) as Record<string, unknown>;
  const collateral = Object.fromEntries(
    COLLATERAL_FIELDS.map((f) => [f, text(given[f])]),
  ) as DstackAttestation2['collateral'];
  return {
    quote: Array.from(Buffer.from(quoteHex, 'hex')),
    collateral,
    tcb_info: {
      mrtd: text(info.mrtd),
      rtmr0: text(info.rtmr0),
      rtmr1: text(info.rtmr1),
      rtmr2: text(info.rtmr2),
      rtmr3: text(info.rtmr3),
      os_image_hash: text(info.os_image_hash),
      compose_hash: text(info.compose_hash),
      device_id: text(info.device_id),
      app_compose: text(info.app_compose),
      event_log: (info.event_log as Array<Record<string, unknown>>).map((e) => ({
        imr: Number(e.imr),
        event_type: Number(e.event_type),
        digest: text(e.digest),
        event: text(e.event),
        event_payload: text(e.event_payload),
      })),
    },
  };
}
