// Whether a registered agent is still valid (the template's `check_invalid_reasons`), in its order.
import { utf8 } from "../lib/bytes";
import { blockTimestamp } from "../lib/context";
import { AgentRecord, measurementsSet, ppidsSet, requiresTee, whitelist } from "./state";

export function nowMs(): u64 {
  return blockTimestamp() / 1_000_000;
}

/** The reasons `account`'s registration is not valid (AgentRemovalReason names); empty when valid. */
export function invalidReasons(account: string, agent: AgentRecord): Array<string> {
  const reasons = new Array<string>();
  if (agent.validUntilMs < nowMs()) reasons.push("ExpiredAttestation");
  if (!measurementsSet.has(utf8(agent.measurements))) reasons.push("InvalidMeasurements");
  if (!ppidsSet.has(utf8(agent.ppid))) reasons.push("InvalidPpid");
  if (!requiresTee() && !whitelist.has(utf8(account))) reasons.push("NotWhitelistedForLocal");
  return reasons;
}

/** `AgentValidity` as serde writes it: "Valid" or {"Invalid":[reasons]}. */
export function validityJson(reasons: Array<string>): string {
  if (reasons.length == 0) return "\"Valid\"";
  return "{\"Invalid\":" + reasonsJson(reasons) + "}";
}

export function reasonsJson(reasons: Array<string>): string {
  let out = "[";
  for (let i = 0; i < reasons.length; i++) out += (i > 0 ? ",\"" : "\"") + reasons[i] + "\"";
  return out + "]";
}

/** Rust's `{:?}` of the reasons: `[ExpiredAttestation, InvalidPpid]`. */
export function reasonsDebug(reasons: Array<string>): string {
  let out = "[";
  for (let i = 0; i < reasons.length; i++) out += (i > 0 ? ", " : "") + reasons[i];
  return out + "]";
}
