/**
 * The record of a running stack in its home: `<stack home>/stack.json`, written by `shadebox up` once its
 * services run (just before the ready line) and removed when it stops cleanly, so that commands run beside it
 * (`shadebox sign`) reach the stack the home names:
 *
 *   {"pid": 12345, "rpcUrl": "http://127.0.0.1:3030", "agentApiUrl": "http://127.0.0.1:3140/api/agent",
 *    "evmRpcUrl": "http://127.0.0.1:8545" (only when the stack runs an EVM chain),
 *    "mpcContractId": "signer.test.near", "agentContractId": "agent.test.near", "startedAt": "<ISO 8601>"}
 *
 * Nothing secret is in it. A stack killed without a clean stop leaves its record behind: a reader checks that
 * the pid still runs (`readStackRecord` → `running`). `--memory` has no home and so no record.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningNode } from '@shadebox/node';
import type { RunningService } from './run-node.js';

export const STACK_RECORD_FILE = 'stack.json';

export interface StackRecord {
  pid: number;
  rpcUrl: string;
  agentApiUrl: string;
  /** The local EVM chain's JSON-RPC, when the stack runs one. */
  evmRpcUrl?: string;
  mpcContractId?: string;
  agentContractId?: string;
  startedAt: string;
}

/** Writes the record (atomically: a reader sees the old file or the whole new one). */
export function writeStackRecord(stackHome: string, record: StackRecord): void {
  const path = join(stackHome, STACK_RECORD_FILE);
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, path);
}

/** Removes the record if it is this process's (a later stack on the same home may have written its own). */
export function removeStackRecord(stackHome: string, pid = process.pid): void {
  const path = join(stackHome, STACK_RECORD_FILE);
  try {
    const record = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    if (record.pid === pid) rmSync(path, { force: true });
  } catch {
    // No record, or not ours to read: nothing to remove.
  }
}

/** The record of `stackHome` and whether its process still runs; null when there is none. A file that is not
 * a record is an error naming it. */
export function readStackRecord(
  stackHome: string,
): { record: StackRecord; running: boolean; path: string } | null {
  const path = join(stackHome, STACK_RECORD_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  let record: StackRecord;
  try {
    record = JSON.parse(text) as StackRecord;
  } catch {
    throw new Error(`${path} is not a stack record (not JSON)`);
  }
  if (
    typeof record !== 'object' ||
    record === null ||
    !Number.isSafeInteger(record.pid) ||
    typeof record.rpcUrl !== 'string' ||
    typeof record.agentApiUrl !== 'string'
  ) {
    throw new Error(`${path} is not a stack record (expected pid, rpcUrl and agentApiUrl)`);
  }
  return { record, running: processRuns(record.pid), path };
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `service` (the stack's services on `node`) with its record kept in `stackHome`: written now from the node's
 * RPC and the services' ready fields (`agentApiUrl`, `evm.rpcUrl`, the contract ids), removed after they stop.
 */
export function recordStack(stackHome: string, node: RunningNode, service: RunningService): RunningService {
  const ready = service.ready as {
    agentApiUrl?: unknown;
    evm?: { rpcUrl?: unknown };
    mpcContractId?: unknown;
    agentContractId?: unknown;
  };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const record: StackRecord = {
    pid: process.pid,
    rpcUrl: node.rpcUrl,
    agentApiUrl: text(ready.agentApiUrl) ?? '',
    ...(text(ready.evm?.rpcUrl) ? { evmRpcUrl: text(ready.evm?.rpcUrl) } : {}),
    ...(text(ready.mpcContractId) ? { mpcContractId: text(ready.mpcContractId) } : {}),
    ...(text(ready.agentContractId) ? { agentContractId: text(ready.agentContractId) } : {}),
    startedAt: new Date().toISOString(),
  };
  writeStackRecord(stackHome, record);
  return {
    ...service,
    stop: async () => {
      try {
        await service.stop();
      } finally {
        removeStackRecord(stackHome);
      }
    },
  };
}
