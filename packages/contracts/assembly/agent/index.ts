// The agent contract: an owner approves code hashes; agents register (local mode: an approved codehash;
// TEE mode: a TDX quote bound to the caller, see tee.ts) and sign through the signer contract with the
// agent contract's derived keys. Unlike the original, signing is guarded, approvals and agents can be
// removed, and a removed codehash stops its agents from signing.
import "../lib/panic";
import { fromUtf8, utf8 } from "../lib/bytes";
import { fromHex } from "../lib/hex";
import { predecessorAccountId, prepaidGas } from "../lib/context";
import { assertPrivate } from "../lib/guards";
import { JsonValue, optBool, optString, optU64, parseArgs, quote, reqField, reqString } from "../lib/json";
import { functionCallWeight, promiseBatchCreate, promiseReturn, TGAS } from "../lib/promises";
import { input, returnString } from "../lib/registers";
import { key, storageHas, storageRead, storageRemove, storageWrite } from "../lib/storage";
import { U128 } from "../lib/u128";
import { IndexedSet } from "../lib/vector";
import { checkTeeRegistration } from "./tee";

const approved = new IndexedSet("a");
const agents = new IndexedSet("w");
const SIGN_GAS: u64 = 15 * TGAS;
const REQUEST_SIGNATURE_GAS: u64 = 25 * TGAS;

function readString(k: string): string {
  const v = storageRead(key(k));
  if (v === null) throw new Error("The contract is not initialized");
  return fromUtf8(v);
}

function owner(): string {
  return readString("owner");
}

function assertOwner(method: string): void {
  if (predecessorAccountId() != owner()) throw new Error("Only the owner can call " + method);
}

function requiresTee(): bool {
  const v = storageRead(key("tee"));
  return v !== null && v.length == 1 && v[0] == 1;
}

function isApproved(codehash: string): bool {
  return approved.has(utf8(codehash));
}

/** `init({owner_id, mpc_contract_id, requires_tee?})`, once, by the contract account. */
export function init(): void {
  assertPrivate("init");
  if (storageHas(key("owner"))) throw new Error("The contract has already been initialized");
  const args = parseArgs(input());
  const ownerId = reqString(args, "owner_id");
  const mpc = reqString(args, "mpc_contract_id");
  const tee = optBool(args, "requires_tee", false);
  storageWrite(key("owner"), utf8(ownerId));
  storageWrite(key("mpc"), utf8(mpc));
  const flag = new Uint8Array(1);
  flag[0] = tee ? 1 : 0;
  storageWrite(key("tee"), flag);
}

export function approve_codehash(): void {
  assertOwner("approve_codehash");
  approved.add(utf8(reqString(parseArgs(input()), "codehash")));
}

export function remove_codehash(): void {
  assertOwner("remove_codehash");
  const codehash = reqString(parseArgs(input()), "codehash");
  if (!approved.remove(utf8(codehash))) throw new Error("Codehash " + codehash + " is not approved");
}

/** Worker JSON as the original contracts return it: {codehash} or {checksum, codehash}. */
function workerJson(codehash: string, checksum: string | null): string {
  if (checksum === null) return "{\"codehash\":" + quote(codehash) + "}";
  return "{\"checksum\":" + quote(checksum) + ",\"codehash\":" + quote(codehash) + "}";
}

/**
 * `register_agent({codehash})` (local mode, only when the contract does not require a TEE) or
 * `register_agent({quote_hex, collateral, checksum, tcb_info})` (TEE mode). Returns true.
 */
export function register_agent(): void {
  const args = parseArgs(input());
  const account = predecessorAccountId();
  let record: string;
  let codehash: string;
  if (args.get("quote_hex") !== null) {
    const tee = checkTeeRegistration(
      account,
      reqString(args, "quote_hex"),
      reqString(args, "collateral"),
      reqString(args, "checksum"),
      reqField(args, "tcb_info", "tcb_info"),
    );
    if (!isApproved(tee.apiImage)) throw new Error("API image codehash " + tee.apiImage + " is not approved");
    if (!isApproved(tee.appImage)) throw new Error("App image codehash " + tee.appImage + " is not approved");
    codehash = tee.appImage;
    record = workerJson(tee.appImage, tee.checksum);
  } else {
    if (requiresTee()) throw new Error("This contract requires a TEE attestation: call register_agent with quote_hex, collateral, checksum and tcb_info");
    codehash = reqString(args, "codehash");
    if (!isApproved(codehash)) throw new Error("Codehash " + codehash + " is not approved");
    record = workerJson(codehash, null);
  }
  storageWrite(key("g", utf8(account)), utf8(record));
  storageWrite(key("h", utf8(account)), utf8(codehash));
  agents.add(utf8(account));
  returnString("true");
}

function workerOf(account: string): string | null {
  const v = storageRead(key("g", utf8(account)));
  return v === null ? null : fromUtf8(v);
}


export function get_agent(): void {
  const account = reqString(parseArgs(input()), "account_id");
  const record = workerOf(account);
  if (record === null) throw new Error("no worker found");
  returnString(record);
}

export function remove_agent(): void {
  assertOwner("remove_agent");
  const account = reqString(parseArgs(input()), "account_id");
  if (!storageRemove(key("g", utf8(account)))) throw new Error("no worker found");
  storageRemove(key("h", utf8(account)));
  agents.remove(utf8(account));
}

/**
 * `request_signature({path, payload, key_type})`: a registered agent whose codehash is still approved asks
 * the signer for `sign` (see signRequestArgs) with 1 yocto; the caller receives the signer's response
 * unchanged.
 */
export function request_signature(): void {
  const args = parseArgs(input());
  const account = predecessorAccountId();
  const stored = storageRead(key("h", utf8(account)));
  if (stored === null) throw new Error("no worker found");
  const codehash = fromUtf8(stored);
  if (!isApproved(codehash)) throw new Error("The codehash of this agent (" + codehash + ") is no longer approved");
  const path = reqString(args, "path");
  const payload = reqString(args, "payload");
  const keyType = optString(args, "key_type");
  const eddsa = keyType !== null && keyType == "Eddsa";
  const prepaid = prepaidGas();
  if (prepaid < REQUEST_SIGNATURE_GAS)
    throw new Error(
      "Provided gas is lower than required. Provided: " + prepaid.toString() + ", required: " + REQUEST_SIGNATURE_GAS.toString(),
    );
  const p = promiseBatchCreate(readString("mpc"));
  // 15 Tgas (the signer's requirement) plus all the gas this call leaves unused.
  functionCallWeight(p, "sign", utf8(signRequestArgs(path, payload, eddsa)), U128.fromU64(1), SIGN_GAS, 1);
  promiseReturn(p);
}

/**
 * The signer's `sign` arguments. A 32-byte ECDSA payload goes in the legacy form
 * (`{payload: [32 numbers], path, key_version: 0}`), which every signer version reads, the chain-signatures v1
 * contract included; anything else in `payload_v2` with `domain_id` (2.x and later), so the signer's own
 * error names what is wrong with it.
 */
function signRequestArgs(path: string, payload: string, eddsa: bool): string {
  const bytes: Uint8Array | null = eddsa ? null : fromHex(payload);
  if (bytes !== null && bytes.length == 32) {
    let numbers = "";
    for (let i = 0; i < 32; i++) numbers += (i > 0 ? "," : "") + bytes[i].toString();
    return "{\"request\":{\"payload\":[" + numbers + "],\"path\":" + quote(path) + ",\"key_version\":0}}";
  }
  return "{\"request\":{\"payload_v2\":{" + quote(eddsa ? "Eddsa" : "Ecdsa") + ":" + quote(payload) +
    "},\"path\":" + quote(path) + ",\"domain_id\":" + (eddsa ? "1" : "0") + "}}";
}

function listPage(set: IndexedSet, args: JsonValue, item: (id: Uint8Array) => string): string {
  const from = optU64(args, "from_index", 0);
  const limit = optU64(args, "limit", 100);
  const total = <u64>set.length;
  const end = from + limit < from || from + limit > total ? total : from + limit;
  let out = "[";
  for (let i = from; i < end; i++) {
    if (i > from) out += ",";
    out += item(set.at(<u32>i));
  }
  return out + "]";
}

/** `get_agents({from_index?, limit?})` → [{account_id, codehash, checksum?}]. */
export function get_agents(): void {
  returnString(
    listPage(agents, parseArgs(input()), (id: Uint8Array): string => {
      const account = fromUtf8(id);
      const v = storageRead(key("g", id));
      const record = v === null ? "{}" : fromUtf8(v);
      return "{\"account_id\":" + quote(account) + (record.length > 2 ? "," + record.substring(1) : "}");
    }),
  );
}

/** `get_approved_codehashes({from_index?, limit?})` → [codehash]. */
export function get_approved_codehashes(): void {
  returnString(listPage(approved, parseArgs(input()), (id: Uint8Array): string => quote(fromUtf8(id))));
}

export function get_owner(): void {
  returnString(quote(owner()));
}

export function get_mpc_contract_id(): void {
  returnString(quote(readString("mpc")));
}
