// The signer contract: NEAR's `v1.signer` interface (sign / respond / yield-resume) with the views NEAR
// exposes, plus the Shadebox `pending_requests` listing. See docs/chain-signatures.md.
import "../lib/panic";
import { fromUtf8, utf8 } from "../lib/bytes";
import { attachedDeposit, currentAccountId, predecessorAccountId, prepaidGas, signerAccountId } from "../lib/context";
import { assertPrivate } from "../lib/guards";
import {
  asArray, asString, asU64, JsonValue, Kind, optField, optString, optU64, parseArgs, parseJson, quote, reqField,
  reqObject, reqString, byteArray,
} from "../lib/json";
import {
  functionCall, promiseBatchCreate, promiseResult, promiseResultsCount, promiseReturn, promiseYieldCreate,
  TGAS, transfer,
} from "../lib/promises";
import { input, returnBytes, returnString } from "../lib/registers";
import { key, storageHas, storageWrite } from "../lib/storage";
import { U128 } from "../lib/u128";
import { lessThanN } from "../crypto/secp256k1";
import {
  deriveEd25519, deriveSecp256k1, deriveTweak, DOMAIN_ED25519, DOMAIN_SECP256K1, najKey, parseNajKey, rootKey,
  storeRootKeys,
} from "./keys";
import {
  firstPendingYield, pendingAt, pendingCount, popOldestPendingYield, pushPendingYield, resolveYieldsFor,
} from "./pending";
import { parsePayload, Payload, parseSignatureRequest, SignatureRequest } from "./request";
import { parseSignatureResponse } from "./response";

const SIGN_GAS_REQUIREMENT: u64 = 15 * TGAS;
const CALLBACK_GAS: u64 = 7 * TGAS;
const FAIL_ON_TIMEOUT_GAS: u64 = 2 * TGAS;
const SIGN_DEPOSIT: U128 = U128.fromU64(1);
const DATA_ID_REGISTER: u64 = 0;
const CALLBACK = "return_signature_and_clean_state_on_success";

function isInitialized(): bool {
  return storageHas(key("init"));
}

function assertInitialized(): void {
  if (!isInitialized()) throw new Error("The contract is not initialized");
}

function isResponder(account: string): bool {
  return storageHas(key("r", utf8(account)));
}

// ---- init ---------------------------------------------------------------------------------------------

/** `init({owner_id, public_keys: {secp256k1, ed25519}, responders})`, once, by the contract account. */
export function init(): void {
  assertPrivate("init");
  if (isInitialized()) throw new Error("The contract has already been initialized");
  const args = parseArgs(input());
  const owner = reqString(args, "owner_id");
  const keys = reqObject(args, "public_keys");
  const secp = parseNajKey(reqString(keys, "secp256k1", "public_keys.secp256k1"), "secp256k1", 64, "public_keys.secp256k1");
  const ed = parseNajKey(reqString(keys, "ed25519", "public_keys.ed25519"), "ed25519", 32, "public_keys.ed25519");
  const responders = asArray(reqField(args, "responders", "responders"), "responders");
  for (let i = 0; i < responders.length; i++) {
    storageWrite(key("r", utf8(asString(responders[i], "responders"))), new Uint8Array(1));
  }
  storeRootKeys(secp, ed);
  storageWrite(key("owner"), utf8(owner));
  storageWrite(key("init"), new Uint8Array(1));
}

// ---- sign ---------------------------------------------------------------------------------------------

/** The legacy `payload`: a JSON array of 32 numbers, read as ECDSA. */
function parseLegacyPayload(v: JsonValue): Payload {
  const items = asArray(v, "request.payload");
  if (items.length != 32) throw new Error("Invalid argument `request.payload`: expected 32 numbers");
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = <u8>asU64(items[i], "request.payload", 255);
  return new Payload(false, bytes);
}

/** `sign({request: {path, payload_v2 | payload, domain_id | key_version}})`, payable. */
export function sign(): void {
  assertInitialized();
  const args = parseArgs(input());
  const req = reqObject(args, "request");
  const path = reqString(req, "path", "request.path");
  const payloadV2 = optField(req, "payload_v2");
  const legacyPayload = optField(req, "payload");
  if (payloadV2 !== null && legacyPayload !== null) throw new Error("payload_v2 and payload are mutually exclusive");
  const domainField = optField(req, "domain_id");
  const keyVersion = optField(req, "key_version");
  if (domainField !== null && keyVersion !== null) throw new Error("domain_id and key_version are mutually exclusive");
  let payload: Payload;
  if (payloadV2 !== null) payload = parsePayload(payloadV2, "request.payload_v2");
  else if (legacyPayload !== null) payload = parseLegacyPayload(legacyPayload);
  else throw new Error("Missing argument `request.payload_v2`");
  let domain: u64 = 0;
  if (domainField !== null) domain = asU64(domainField, "request.domain_id");
  else if (keyVersion !== null) domain = asU64(keyVersion, "request.key_version", u32.MAX_VALUE);

  // 1. domain, 2. gas, 3. deposit (excess refunded), then the payload against the domain's protocol.
  if (domain > DOMAIN_ED25519) throw new Error("The provided domain ID, " + domain.toString() + ", was not found.");
  const prepaid = prepaidGas();
  if (prepaid < SIGN_GAS_REQUIREMENT)
    throw new Error(
      "Provided gas is lower than required. Provided: " + prepaid.toString() + ", required: " + SIGN_GAS_REQUIREMENT.toString(),
    );
  const predecessor = predecessorAccountId();
  const deposit = attachedDeposit();
  if (deposit.cmp(SIGN_DEPOSIT) < 0)
    throw new Error(
      "Attached deposit is lower than required. Attached: " + deposit.toString() + ", required: " + SIGN_DEPOSIT.toString(),
    );
  const excess = deposit.sub(SIGN_DEPOSIT);
  if (!excess.isZero()) transfer(promiseBatchCreate(predecessor), excess);

  if (domain == DOMAIN_SECP256K1) {
    if (payload.eddsa) throw new Error("Payload is not Ecdsa");
    if (!lessThanN(payload.bytes)) throw new Error("Ecdsa payload cannot be converted to Scalar");
  } else if (!payload.eddsa) {
    throw new Error("Payload is not EdDSA");
  }

  const request = new SignatureRequest(deriveTweak(predecessor, path), payload, domain);
  const requestJson = request.toJson();
  const y = promiseYieldCreate(CALLBACK, utf8("[" + requestJson + "]"), CALLBACK_GAS, 0, DATA_ID_REGISTER);
  pushPendingYield(requestJson, y.dataId);
  promiseReturn(y.index);
}

// ---- respond ------------------------------------------------------------------------------------------

/** `respond({request, response})`: registered responders only; the signature must verify. */
export function respond(): void {
  assertInitialized();
  const predecessor = predecessorAccountId();
  if (signerAccountId() != predecessor) throw new Error("Caller is not the signer account.");
  if (!isResponder(predecessor)) throw new Error("Not a participant: " + predecessor);
  const args = parseArgs(input());
  const request = parseSignatureRequest(reqField(args, "request", "request"), "request");
  const response = parseSignatureResponse(reqField(args, "response", "response"), "response");

  const root = rootKey(request.domainId);
  if (root === null) throw new Error("The provided domain was not found.");
  const ed = request.domainId == DOMAIN_ED25519;
  if (response.ed25519 != ed)
    throw new Error(
      "The provided signature scheme does not match. MPC response: " + (response.ed25519 ? "Ed25519" : "Secp256k1") +
        ", user request: " + (ed ? "Ed25519" : "Secp256k1"),
    );
  let valid = false;
  if (ed) {
    if (!request.payload.eddsa) throw new Error("Payload is not EdDSA");
    const derived = deriveEd25519(root, request.tweak);
    if (derived === null) throw new Error("The provided tweak is not on the curve of the public key.");
    valid = response.verifyEddsa(request.payload.bytes, derived);
  } else {
    if (request.payload.eddsa) throw new Error("Payload is not ECDSA");
    const derived = deriveSecp256k1(root, request.tweak);
    if (derived === null) throw new Error("The provided tweak is not on the curve of the public key.");
    valid = response.verifyEcdsa(request.payload.bytes, derived);
  }
  if (!valid) throw new Error("The provided signature is invalid.");

  if (!resolveYieldsFor(request.toJson(), utf8(response.toJson())))
    throw new Error("This sign request has timed out, was completed, or never existed.");
}

// ---- yield callback and timeout -----------------------------------------------------------------------

/** The yield's callback, args `[request]`: the response on success; on timeout, `fail_on_timeout`. */
export function return_signature_and_clean_state_on_success(): void {
  assertPrivate(CALLBACK);
  const args = parseJson(input());
  let requestValue: JsonValue;
  if (args.kind == Kind.Array && args.items.length == 1) requestValue = args.items[0];
  else if (args.kind == Kind.Object) requestValue = reqField(args, "request", "request");
  else throw new Error("Invalid argument `request`: expected [request]");
  const request = parseSignatureRequest(requestValue, "request");
  if (promiseResultsCount() != 1) throw new Error("Expected exactly one promise result");
  const result = promiseResult(0);
  if (result.ok) {
    returnBytes(result.value);
    return;
  }
  popOldestPendingYield(request.toJson());
  const p = promiseBatchCreate(currentAccountId());
  functionCall(p, "fail_on_timeout", new Uint8Array(0), U128.fromU64(0), FAIL_ON_TIMEOUT_GAS);
  promiseReturn(p);
}

export function fail_on_timeout(): void {
  assertPrivate("fail_on_timeout");
  throw new Error("Request has timed out.");
}

// ---- views --------------------------------------------------------------------------------------------

function domainRoot(domain: u64): Uint8Array {
  const root = rootKey(domain);
  if (root === null) throw new Error("The provided domain was not found.");
  return root;
}

/** `public_key({domain_id?})` → "secp256k1:…" (domain 0, the default) or "ed25519:…". */
export function public_key(): void {
  assertInitialized();
  const args = parseArgs(input());
  const domain = optU64(args, "domain_id", 0);
  const root = domainRoot(domain);
  returnString(quote(najKey(domain == DOMAIN_SECP256K1 ? "secp256k1" : "ed25519", root)));
}

/** `derived_public_key({path, predecessor?, domain_id?})`. */
export function derived_public_key(): void {
  assertInitialized();
  const args = parseArgs(input());
  const path = reqString(args, "path");
  const given = optString(args, "predecessor");
  const predecessor = given !== null ? given : predecessorAccountId();
  const domain = optU64(args, "domain_id", 0);
  const root = domainRoot(domain);
  const tweak = deriveTweak(predecessor, path);
  if (domain == DOMAIN_SECP256K1) {
    const derived = deriveSecp256k1(root, tweak);
    if (derived === null) throw new Error("The provided tweak is not on the curve of the public key.");
    returnString(quote(najKey("secp256k1", derived)));
  } else {
    const derived = deriveEd25519(root, tweak);
    if (derived === null) throw new Error("The provided tweak is not on the curve of the public key.");
    returnString(quote(najKey("ed25519", derived)));
  }
}

/** `latest_key_version({signature_scheme?})` → 0. */
export function latest_key_version(): void {
  returnString("0");
}

/** `get_pending_request({request})` → {"data_id": [32 numbers]} of the queue's head, or null. */
export function get_pending_request(): void {
  const args = parseArgs(input());
  const request = parseSignatureRequest(reqField(args, "request", "request"), "request");
  const head = firstPendingYield(request.toJson());
  returnString(head === null ? "null" : "{\"data_id\":" + byteArray(head) + "}");
}

/** Shadebox: `pending_requests({from_index?, limit?})` → [{request, count}]. */
export function pending_requests(): void {
  const args = parseArgs(input());
  const from = optU64(args, "from_index", 0);
  const limit = optU64(args, "limit", 100);
  const total = <u64>pendingCount();
  let out = "[";
  let first = true;
  const end = from + limit < from || from + limit > total ? total : from + limit;
  for (let i = from; i < end; i++) {
    const json = new Array<string>();
    const count = pendingAt(<u32>i, json);
    if (count == 0) continue;
    if (!first) out += ",";
    first = false;
    out += "{\"request\":" + json[0] + ",\"count\":" + count.toString() + "}";
  }
  returnString(out + "]");
}
