// The Shade Agent Framework 2.0 agent contract (the interface of the framework's shade-contract-template):
// the owner approves measurements and PPIDs and, in local mode, whitelists agents; agents register with an
// attestation (local mode: whitelisted, with the mock measurements and the default PPID approved) for
// `attestation_expiration_time_ms`; valid agents sign through the MPC contract's `sign`. Messages are the
// template's. TEE mode (`requires_tee: true`) checks what can be checked on chain of the attestation
// (./tee-attestation.ts): not the quote's signature.
import "../lib/panic";
import { fromUtf8, utf8 } from "../lib/bytes";
import { attachedDeposit, currentAccountId, predecessorAccountId } from "../lib/context";
import { assertPrivate } from "../lib/guards";
import { asArray, asString, JsonValue, Kind, optU64, parseArgs, quote, reqBool, reqField, reqString } from "../lib/json";
import { functionCall, functionCallWeight, promiseBatchCreate, promiseReturn, TGAS } from "../lib/promises";
import { input, returnString } from "../lib/registers";
import { U128 } from "../lib/u128";
import { IndexedSet } from "../lib/vector";
import { checkAccountId } from "./account-id";
import { checkAttestationShape, verifyAttestation } from "./attestation";
import { agentRegistered, agentRemoved } from "./events";
import { canonicalMeasurements, canonicalPpid } from "./measurements";
import {
  AgentRecord,
  agentsSet,
  assertOwner,
  isInitialized,
  measurementsSet,
  ppidsSet,
  readAgent,
  readConfig,
  removeAgentRecord,
  requiresTee,
  whitelist,
  writeAgent,
  writeConfig,
} from "./state";
import { updateContract } from "./update";
import { invalidReasons, nowMs, reasonsDebug, reasonsJson, validityJson } from "./validity";

/** The template's STORAGE_BYTES_TO_REGISTER (486) at near-sdk's storage byte cost (1e19 yocto): 0.00486 NEAR. */
const REGISTER_DEPOSIT = new U128(8_506_308_614_387_924_992, 263); // 4.86e21 yocto
const REGISTER_DEPOSIT_TEXT = "0.00486 NEAR";
const SIGN_GAS: u64 = 15 * TGAS;
const FAIL_GAS: u64 = 10 * TGAS;

/** near-sdk refuses a deposit on a method not marked `#[payable]` (every one here but register_agent). */
function nonPayable(method: string): void {
  if (!attachedDeposit().isZero()) throw new Error("Method " + method + " doesn't accept deposit");
}

/** near-sdk's U64: a decimal string (a JSON number is taken too). */
function reqU64(args: JsonValue, field: string): u64 {
  const v = reqField(args, field, field);
  if (v.kind == Kind.String) {
    const n = new JsonValue();
    n.kind = Kind.Number;
    n.text = v.text;
    return optU64(wrap(field, n), field, 0);
  }
  return optU64(args, field, 0);
}

function wrap(field: string, v: JsonValue): JsonValue {
  const o = new JsonValue();
  o.kind = Kind.Object;
  o.keys.push(field);
  o.items.push(v);
  return o;
}

function reqAccountId(args: JsonValue, field: string): string {
  return checkAccountId(reqString(args, field), field);
}

// ---- init -------------------------------------------------------------------------------------------------

/** `new({requires_tee, attestation_expiration_time_ms, owner_id, mpc_contract_id})`, once, by the contract account. */
function init(): void {
  assertPrivate("new");
  nonPayable("new");
  if (isInitialized()) throw new Error("The contract has already been initialized");
  const args = parseArgs(input());
  const tee = reqBool(args, "requires_tee");
  const exp = reqU64(args, "attestation_expiration_time_ms");
  const owner = reqAccountId(args, "owner_id");
  const mpc = reqAccountId(args, "mpc_contract_id");
  writeConfig("tee", tee ? "1" : "0");
  writeConfig("exp", exp.toString());
  writeConfig("owner", owner);
  writeConfig("mpc", mpc);
}

export { init as new };

// ---- agents ------------------------------------------------------------------------------------------------

/** `register_agent({attestation})`, payable: → true. A new agent attaches at least 0.00486 NEAR. */
export function register_agent(): void {
  const args = parseArgs(input());
  checkAttestationShape(args);
  const caller = predecessorAccountId();
  if (readAgent(caller) === null && attachedDeposit().cmp(REGISTER_DEPOSIT) < 0) {
    throw new Error("Attached deposit must be greater than storage cost \"" + REGISTER_DEPOSIT_TEXT + "\"");
  }
  const verified = verifyAttestation(args);
  const now = nowMs();
  const validUntil = now + <u64>U64.parseInt(readConfig("exp"));
  agentRegistered(caller, verified.measurements, verified.ppid, now, validUntil);
  writeAgent(caller, new AgentRecord(validUntil, verified.ppid, verified.measurements));
  returnString("true");
}

/**
 * `request_signature({path, payload, key_type})`: a valid agent gets the MPC contract's `sign` answer. An agent
 * no longer valid is removed, and the call fails in a receipt of its own (`fail_on_invalid_agent`) so that the
 * removal stays, as the template's `require_valid_agent` does.
 */
export function request_signature(): void {
  nonPayable("request_signature");
  const args = parseArgs(input());
  const path = reqString(args, "path");
  const payload = reqString(args, "payload");
  const keyType = reqString(args, "key_type");
  const caller = predecessorAccountId();
  const agent = readAgent(caller);
  if (agent === null) throw new Error("Agent not registered");
  const reasons = invalidReasons(caller, agent);
  if (reasons.length > 0) {
    removeAgentRecord(caller);
    agentRemoved(caller, reasonsJson(reasons));
    const p = promiseBatchCreate(currentAccountId());
    functionCall(p, "fail_on_invalid_agent", utf8("{\"reasons\":" + reasonsJson(reasons) + "}"), new U128(), FAIL_GAS);
    promiseReturn(p);
    return;
  }
  let domain: string;
  if (keyType == "Ecdsa") domain = "0";
  else if (keyType == "Eddsa") domain = "1";
  else throw new Error("Invalid key type");
  const request = "{\"request\":{\"payload_v2\":{" + quote(keyType) + ":" + quote(payload) + "},\"path\":" + quote(path) +
    ",\"domain_id\":" + domain + "}}";
  const p = promiseBatchCreate(readConfig("mpc"));
  // 15 Tgas, plus the unused gas (near-sdk's default weight 1), and 1 yoctoNEAR.
  functionCallWeight(p, "sign", utf8(request), U128.fromU64(1), SIGN_GAS, 1);
  promiseReturn(p);
}

/** `#[private] fail_on_invalid_agent({reasons})`: always panics `Invalid agent: [..]`. */
export function fail_on_invalid_agent(): void {
  assertPrivate("fail_on_invalid_agent");
  nonPayable("fail_on_invalid_agent");
  const items = asArray(reqField(parseArgs(input()), "reasons", "reasons"), "reasons");
  const reasons = new Array<string>();
  for (let i = 0; i < items.length; i++) reasons.push(asString(items[i], "reasons"));
  throw new Error("Invalid agent: " + reasonsDebug(reasons));
}

// ---- owner -------------------------------------------------------------------------------------------------

export function update_attestation_expiration_time(): void {
  nonPayable("update_attestation_expiration_time");
  assertOwner();
  writeConfig("exp", reqU64(parseArgs(input()), "attestation_expiration_time_ms").toString());
}

export function update_owner_id(): void {
  nonPayable("update_owner_id");
  assertOwner();
  writeConfig("owner", reqAccountId(parseArgs(input()), "owner_id"));
}

export function update_mpc_contract_id(): void {
  nonPayable("update_mpc_contract_id");
  assertOwner();
  writeConfig("mpc", reqAccountId(parseArgs(input()), "mpc_contract_id"));
}

export function approve_measurements(): void {
  nonPayable("approve_measurements");
  assertOwner();
  const m = canonicalMeasurements(reqField(parseArgs(input()), "measurements", "measurements"), "measurements");
  measurementsSet.add(utf8(m));
}

export function remove_measurements(): void {
  nonPayable("remove_measurements");
  assertOwner();
  const m = canonicalMeasurements(reqField(parseArgs(input()), "measurements", "measurements"), "measurements");
  if (!measurementsSet.remove(utf8(m))) throw new Error("Measurements not in approved list");
}

function ppidsArg(): Array<string> {
  const items = asArray(reqField(parseArgs(input()), "ppids", "ppids"), "ppids");
  const out = new Array<string>();
  for (let i = 0; i < items.length; i++) out.push(canonicalPpid(items[i], "ppids"));
  return out;
}

export function approve_ppids(): void {
  nonPayable("approve_ppids");
  assertOwner();
  const ppids = ppidsArg();
  for (let i = 0; i < ppids.length; i++) ppidsSet.add(utf8(ppids[i]));
}

export function remove_ppids(): void {
  nonPayable("remove_ppids");
  assertOwner();
  const ppids = ppidsArg();
  for (let i = 0; i < ppids.length; i++) if (!ppidsSet.remove(utf8(ppids[i]))) throw new Error("PPID not in approved list");
}

export function remove_agent(): void {
  nonPayable("remove_agent");
  assertOwner();
  const account = reqAccountId(parseArgs(input()), "account_id");
  if (!removeAgentRecord(account)) throw new Error("Agent not registered");
  agentRemoved(account, "[\"ManualRemoval\"]");
}

export function update_contract(): void {
  nonPayable("update_contract");
  assertOwner();
  updateContract();
}

/** `#[private] migrate()`, which `update_contract` calls on the new code: this build keeps the state as it is,
 * so `update_contract` with the same or a later build of this contract succeeds and keeps everything. */
export function migrate(): void {
  assertPrivate("migrate");
  nonPayable("migrate");
}

export function whitelist_agent_for_local(): void {
  nonPayable("whitelist_agent_for_local");
  if (requiresTee()) throw new Error("Whitelisting agents is not supported for TEE");
  assertOwner();
  whitelist.add(utf8(reqAccountId(parseArgs(input()), "account_id")));
}

export function remove_agent_from_whitelist_for_local(): void {
  nonPayable("remove_agent_from_whitelist_for_local");
  if (requiresTee()) throw new Error("Removing agents from the whitelist is not supported for TEE");
  assertOwner();
  if (!whitelist.remove(utf8(reqAccountId(parseArgs(input()), "account_id")))) throw new Error("Agent not in whitelist for local");
}

// ---- views -------------------------------------------------------------------------------------------------

export function get_contract_info(): void {
  returnString(
    "{\"requires_tee\":" + (requiresTee() ? "true" : "false") + ",\"attestation_expiration_time_ms\":\"" + readConfig("exp") +
      "\",\"owner_id\":" + quote(readConfig("owner")) + ",\"mpc_contract_id\":" + quote(readConfig("mpc")) + "}",
  );
}

/** `{from_index?, limit?}` pages as the template's skip/take: limit defaults to the whole set. */
function page(set: IndexedSet, item: (id: Uint8Array) => string): string {
  const args = parseArgs(input());
  const total = <u64>set.length;
  const from = optU64(args, "from_index", 0, "from_index", u32.MAX_VALUE);
  const limit = optU64(args, "limit", total, "limit", u32.MAX_VALUE);
  const end = from + limit > total ? total : from + limit;
  let out = "[";
  for (let i = from; i < end; i++) {
    if (i > from) out += ",";
    out += item(set.at(<u32>i));
  }
  return out + "]";
}

export function get_approved_measurements(): void {
  returnString(page(measurementsSet, (id: Uint8Array): string => fromUtf8(id)));
}

export function get_approved_ppids(): void {
  returnString(page(ppidsSet, (id: Uint8Array): string => quote(fromUtf8(id))));
}

function agentView(account: string, agent: AgentRecord): string {
  return "{\"account_id\":" + quote(account) + ",\"measurements\":" + agent.measurements + ",\"ppid\":" + quote(agent.ppid) +
    ",\"valid_until_ms\":\"" + agent.validUntilMs.toString() + "\",\"validity\":" + validityJson(invalidReasons(account, agent)) + "}";
}

/** `get_agent({account_id})` → the agent with its validity, or null. */
export function get_agent(): void {
  const account = reqAccountId(parseArgs(input()), "account_id");
  const agent = readAgent(account);
  returnString(agent === null ? "null" : agentView(account, agent));
}

export function get_agents(): void {
  returnString(
    page(agentsSet, (id: Uint8Array): string => {
      const account = fromUtf8(id);
      const agent = readAgent(account);
      return agent === null ? "null" : agentView(account, agent);
    }),
  );
}

export function get_whitelisted_agents_for_local(): void {
  if (requiresTee()) throw new Error("Getting whitelisted agents is not supported for TEE");
  returnString(page(whitelist, (id: Uint8Array): string => quote(fromUtf8(id))));
}
