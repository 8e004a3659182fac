// NEP-297 events as the template logs them (`EVENT_JSON:` + standard "shade-contract-template" 1.0.0),
// keys in the order serde_json's map gives them (sorted).
import { log } from "../lib/log";
import { quote } from "../lib/json";

function emit(event: string, data: string): void {
  log("EVENT_JSON:{\"data\":[" + data + "],\"event\":\"" + event + "\",\"standard\":\"shade-contract-template\",\"version\":\"1.0.0\"}");
}

/** Measurements JSON with sorted keys (serde_json's Value), from the canonical JSON. */
function sortedMeasurements(canonical: string): string {
  // canonical: {"rtmrs":{...},"key_provider_event_digest":"…","app_compose_hash_payload":"…"}
  const rtmrsEnd = canonical.indexOf("}") + 1;
  const rtmrs = canonical.substring(9, rtmrsEnd);
  const rest = canonical.substring(rtmrsEnd + 1, canonical.length - 1);
  const comma = rest.indexOf(",");
  return "{" + rest.substring(comma + 1) + "," + rest.substring(0, comma) + ",\"rtmrs\":" + rtmrs + "}";
}

export function agentRegistered(account: string, measurements: string, ppid: string, nowMs: u64, validUntilMs: u64): void {
  emit(
    "agent_registered",
    "{\"account_id\":" + quote(account) + ",\"advisory_ids_truncated\":[],\"current_time_ms\":\"" + nowMs.toString() +
      "\",\"measurements\":" + sortedMeasurements(measurements) + ",\"number_of_advisory_ids\":0,\"ppid\":" + quote(ppid) +
      ",\"valid_until_ms\":\"" + validUntilMs.toString() + "\"}",
  );
}

export function agentRemoved(account: string, reasonsJson: string): void {
  emit("agent_removed", "{\"account_id\":" + quote(account) + ",\"reasons\":" + reasonsJson + "}");
}
