// The 2.0 agent contract's state: its configuration (set by `new`, changed by the owner), the approved
// measurements and PPIDs, the local-mode whitelist and the registered agents. Sets are IndexedSets, so the
// listings come in the order of insertion with removals swapped in from the end, as near-sdk's IterableSet
// and IterableMap keep them.
//   c:owner, c:mpc, c:tee (1 byte), c:exp (u64 decimal) → the configuration
//   m… → measurements (canonical JSON), p… → PPIDs (32 lowercase hex), l… → whitelisted accounts,
//   a… → registered accounts, r<account> → "<valid_until_ms>|<ppid>|<measurements JSON>"
import { fromUtf8, utf8 } from "../lib/bytes";
import { predecessorAccountId } from "../lib/context";
import { key, storageRead, storageRemove, storageWrite } from "../lib/storage";
import { IndexedSet } from "../lib/vector";

export const measurementsSet = new IndexedSet("m");
export const ppidsSet = new IndexedSet("p");
export const whitelist = new IndexedSet("l");
export const agentsSet = new IndexedSet("a");

export function readConfig(name: string): string {
  const v = storageRead(key("c:" + name));
  if (v === null) throw new Error("The contract is not initialized");
  return fromUtf8(v);
}

export function writeConfig(name: string, value: string): void {
  storageWrite(key("c:" + name), utf8(value));
}

export function isInitialized(): bool {
  return storageRead(key("c:owner")) !== null;
}

export function requiresTee(): bool {
  return readConfig("tee") == "1";
}

export function expirationMs(): u64 {
  return U64.parseInt(readConfig("exp"));
}

/** The template's `require_owner`. */
export function assertOwner(): void {
  if (predecessorAccountId() != readConfig("owner")) throw new Error("Caller is not the owner");
}

/** A registered agent as stored. */
export class AgentRecord {
  constructor(public validUntilMs: u64, public ppid: string, public measurements: string) {}
}

export function readAgent(account: string): AgentRecord | null {
  const v = storageRead(key("r", utf8(account)));
  if (v === null) return null;
  const text = fromUtf8(v);
  const a = text.indexOf("|");
  const b = text.indexOf("|", a + 1);
  return new AgentRecord(U64.parseInt(text.substring(0, a)), text.substring(a + 1, b), text.substring(b + 1));
}

export function writeAgent(account: string, r: AgentRecord): void {
  storageWrite(key("r", utf8(account)), utf8(r.validUntilMs.toString() + "|" + r.ppid + "|" + r.measurements));
  agentsSet.add(utf8(account));
}

/** Removes a registered agent; false when it was not registered. */
export function removeAgentRecord(account: string): bool {
  if (!storageRemove(key("r", utf8(account)))) return false;
  agentsSet.remove(utf8(account));
  return true;
}
