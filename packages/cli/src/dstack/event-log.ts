/**
 * dstack's runtime event log and RTMR replay. An RTMR starts at 48 zero bytes and each event extends it:
 * `rtmr = sha384(rtmr ‖ digest)`. A dstack runtime event (RTMR3, event type 0x08000001) has
 * `digest = sha384(event_type as 4 little-endian bytes ‖ ":" ‖ event name ‖ ":" ‖ payload bytes)`. In
 * tcb_info's `event_log` an entry is `{imr, event_type, digest, event, event_payload}` with the digest and
 * the payload in hex.
 */
import { createHash } from 'node:crypto';

export const DSTACK_RUNTIME_EVENT_TYPE = 0x08000001;

export interface EventLogEntry {
  imr: number;
  event_type: number;
  /** sha384, hex. */
  digest: string;
  event: string;
  /** hex */
  event_payload: string;
}

export function runtimeEventDigest(
  event: string,
  payload: Buffer,
  eventType = DSTACK_RUNTIME_EVENT_TYPE,
): Buffer {
  const type = Buffer.alloc(4);
  type.writeUInt32LE(eventType);
  return createHash('sha384')
    .update(type)
    .update(':')
    .update(event, 'utf8')
    .update(':')
    .update(payload)
    .digest();
}

/** An RTMR3 event as dstack's guest extends it. */
export function runtimeEvent(event: string, payload: Buffer): EventLogEntry {
  return {
    imr: 3,
    event_type: DSTACK_RUNTIME_EVENT_TYPE,
    digest: runtimeEventDigest(event, payload).toString('hex'),
    event,
    event_payload: payload.toString('hex'),
  };
}

/** `rtmr = sha384(rtmr ‖ digest)` over the entries of register `imr`, from 48 zero bytes. */
export function replayRtmr(log: readonly EventLogEntry[], imr: number): Buffer {
  let rtmr = Buffer.alloc(48);
  for (const e of log) {
    if (e.imr !== imr) continue;
    rtmr = createHash('sha384').update(rtmr).update(Buffer.from(e.digest, 'hex')).digest();
  }
  return rtmr;
}

/** Whether every runtime event's digest is what its type, name and payload give. */
export function runtimeDigestsHold(log: readonly EventLogEntry[]): boolean {
  return log.every(
    (e) =>
      e.event_type !== DSTACK_RUNTIME_EVENT_TYPE ||
      runtimeEventDigest(e.event, Buffer.from(e.event_payload, 'hex')).toString('hex') === e.digest,
  );
}
