// dstack's RTMR3 event log as tcb_info carries it (`event_log: [{imr, event_type, digest, event,
// event_payload}]`, digest and payload in hex): each runtime event's digest is recomputed
// (sha384(event_type as u32 LE ‖ ":" ‖ event ‖ ":" ‖ payload)), and RTMR3 is replayed from 48 zero bytes as
// rtmr = sha384(rtmr ‖ digest).
import { bytesEqual, concat, utf8 } from "../lib/bytes";
import { sha384 } from "../crypto/sha384";
import { fromHex } from "../lib/hex";
import { asString, asU64, JsonValue, Kind, reqField } from "../lib/json";

export const DSTACK_RUNTIME_EVENT: u64 = 0x08000001;

export class Rtmr3Event {
  constructor(public type: u64, public name: string, public digest: Uint8Array, public payload: Uint8Array) {}
}

/** A hex string field of an event (`bytes` long, or any length when -1). */
function hexField(e: JsonValue, field: string, at: string, bytes: i32): Uint8Array {
  const path = at + "." + field;
  const b = fromHex(asString(reqField(e, field, path), path));
  if (b === null || (bytes >= 0 && b.length != bytes))
    throw new Error("Invalid argument `" + path + "`: expected " + (bytes >= 0 ? bytes.toString() + " bytes in hex" : "hex"));
  return b;
}

function runtimeDigest(type: u64, name: string, payload: Uint8Array): Uint8Array {
  const typeLe = new Uint8Array(4);
  typeLe[0] = <u8>type;
  typeLe[1] = <u8>(type >> 8);
  typeLe[2] = <u8>(type >> 16);
  typeLe[3] = <u8>(type >> 24);
  return sha384(concat(concat(typeLe, utf8(":" + name + ":")), payload));
}

/** The RTMR3 entries of `log` (an array at `path`), each runtime event's digest checked against its payload. */
export function rtmr3Events(log: JsonValue | null, path: string): Array<Rtmr3Event> {
  if (log === null || log.kind != Kind.Array) throw new Error("Invalid argument `" + path + "`: expected an array");
  const out = new Array<Rtmr3Event>();
  for (let i = 0; i < log.items.length; i++) {
    const e = log.items[i];
    const at = path + "[" + i.toString() + "]";
    if (e.kind != Kind.Object) throw new Error("Invalid argument `" + at + "`: expected an object");
    if (asU64(reqField(e, "imr", at + ".imr"), at + ".imr", 3) != 3) continue;
    const digest = hexField(e, "digest", at, 48);
    const type = asU64(reqField(e, "event_type", at + ".event_type"), at + ".event_type", 0xffffffff);
    const name = asString(reqField(e, "event", at + ".event"), at + ".event");
    const payload = hexField(e, "event_payload", at, -1);
    if (type == DSTACK_RUNTIME_EVENT && !bytesEqual(runtimeDigest(type, name, payload), digest))
      throw new Error("tcb_info: the digest of event `" + name + "` does not match its payload");
    out.push(new Rtmr3Event(type, name, digest, payload));
  }
  return out;
}

/** RTMR3 replayed from the events' digests. */
export function replayRtmr3(events: Array<Rtmr3Event>): Uint8Array {
  let rtmr = new Uint8Array(48);
  for (let i = 0; i < events.length; i++) rtmr = sha384(concat(rtmr, events[i].digest));
  return rtmr;
}
