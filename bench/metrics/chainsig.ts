/**
 * The `chainsig` phase (Shadebox only; anvil has no equivalent): the latency of one chain-signature request.
 *
 * Its own node: `shadebox node --memory --mpc --rpc-port 0 --json` (with `--signer-wasm FILE` for one of
 * NEAR's signer builds), which deploys the signer contract (`signer.test.near`) and the agent contract
 * (`agent.test.near`, owner test.near) and runs the MPC responder. Setup:
 * `agents` accounts `agent<i>.test.near` are created and funded (createSigners), the owner calls
 * `approve_codehash({codehash})` and each agent `register_agent({codehash})` (both to FINAL, checked).
 *
 * One request: an agent signs a FunctionCall `request_signature({path, payload: <hex of 32 bytes>,
 * key_type: "Ecdsa"})` with 100 Tgas and no deposit (signing is not timed), then the clock runs from posting
 * `send_tx` with `wait_until: "EXECUTED"` until its answer is received and parsed. Every payload is distinct
 * (no two requests can share one pending signature). Each result must be a SuccessValue holding a Secp256k1
 * signature response, and its signature must recover (low S) to the key derived for (agent contract, path)
 * from the signer's `public_key` — checked after the clock stops.
 *
 * - sequential: one agent, one request at a time on an idle automine chain: `warmup` requests, then
 *   `requests` measured; median, p90, p99, max.
 * - concurrent: all `agents` at once, each sequential (one request in flight per agent): `warmupPerAgent`
 *   each, then `requestsPerAgent` each measured; requests/s = measured requests / wall time from the first
 *   measured send to the last answer; p50 and p99 per request.
 */
import {
  derivedPublicKey,
  type EcdsaSignatureResponse,
  najToSecp256k1PublicKey,
  recoverEcdsaPublicKey,
} from '@shadebox/mpc';
import { type RpcClient, sendTransaction, viewFunction } from '@shadebox/near-client';
import { base64Decode, hexEncode, TGAS } from '@shadebox/primitives';
import { type LatencySummary, median, summarize } from '../load.js';
import { createSigners, rootSigner, sendFinal } from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import { type Launcher, startShadebox } from '../shadebox-node.js';
import { readMemory } from './memory.js';

export const CHAINSIG_DEFAULTS = {
  warmup: 10,
  requests: 100,
  agents: 8,
  warmupPerAgent: 2,
  requestsPerAgent: 25,
  path: 'bench-1',
} as const;
export type ChainsigOptions = typeof CHAINSIG_DEFAULTS;

const REQUEST_GAS = 100n * TGAS;
const CODEHASH = 'c'.repeat(64);

export interface ChainsigSequential {
  warmup: number;
  requests: number;
  /** The true median of the measured latencies (the target's measure). */
  medianMs: number;
  latency: LatencySummary;
  totalMs: number;
}

export interface ChainsigConcurrent {
  agents: number;
  warmupPerAgent: number;
  requestsPerAgent: number;
  requests: number;
  /** First measured send to last answer. */
  wallMs: number;
  perSecond: number;
  latency: LatencySummary;
}

export interface ChainsigResult {
  /** The signer served: Shadebox's built-in one, or the file name of NEAR's build (`--signer-wasm`). */
  signer: string;
  mpcContractId: string;
  agentContractId: string;
  path: string;
  /** Server start (deploying both contracts) to the ready line, ms. */
  readyMs: number;
  /** Agents created, codehash approved, agents registered, ms. */
  setupMs: number;
  /** Signature responses checked (warmups included): every one parsed and recovered to the derived key. */
  verified: number;
  /** How many answers came at each `final_execution_status` (EXECUTED asked; a later one is accepted). */
  statuses: Record<string, number>;
  sequential: ChainsigSequential | { error: string };
  concurrent: ChainsigConcurrent | { error: string };
  rssAfterBytes?: number;
}

interface ExecutedOutcome {
  final_execution_status: string;
  status: { SuccessValue?: string; Failure?: unknown };
  transaction_outcome: { block_hash: string };
}

const errorOf = (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) });
const utf8 = (s: string) => new TextEncoder().encode(s);

/** Parses a Secp256k1 signature response; throws with the text when it is not one. */
export function parseEcdsaSignatureResponse(text: string): EcdsaSignatureResponse {
  const r = JSON.parse(text) as Partial<EcdsaSignatureResponse>;
  if (
    r.scheme !== 'Secp256k1' ||
    typeof r.big_r?.affine_point !== 'string' ||
    !/^0[23][0-9a-f]{64}$/.test(r.big_r.affine_point) ||
    typeof r.s?.scalar !== 'string' ||
    !/^[0-9a-f]{64}$/.test(r.s.scalar) ||
    typeof r.recovery_id !== 'number' ||
    !Number.isInteger(r.recovery_id) ||
    r.recovery_id < 0 ||
    r.recovery_id > 3
  ) {
    throw new Error(`not a Secp256k1 signature response: ${text.slice(0, 300)}`);
  }
  return r as EcdsaSignatureResponse;
}

/** 32 bytes that no other request of the run uses: the agent index, the request number, a run nonce. */
function payloadFor(agent: number, n: number, run: Uint8Array): Uint8Array {
  const p = new Uint8Array(32);
  p.set(run, 0);
  const view = new DataView(p.buffer);
  view.setUint32(24, agent);
  view.setUint32(28, n);
  return p;
}

function callAction(methodName: string, args: unknown, gas = REQUEST_GAS) {
  return {
    type: 'FunctionCall' as const,
    methodName,
    args: utf8(JSON.stringify(args)),
    gas,
    deposit: 0n,
  };
}

const decodeValue = (outcome: { status: { SuccessValue?: string } }) =>
  new TextDecoder().decode(base64Decode(outcome.status.SuccessValue ?? ''));

export async function measureChainSignatures(
  launcher: Launcher,
  options: ChainsigOptions = CHAINSIG_DEFAULTS,
  cpuProfileDir?: string,
  /** One of NEAR's signer builds to serve instead of Shadebox's (`--signer-wasm`). */
  signerWasm?: string,
): Promise<ChainsigResult> {
  const extraArgs = signerWasm === undefined ? ['--mpc'] : ['--mpc', '--signer-wasm', signerWasm];
  const server = await startShadebox({ launcher, extraArgs, timeoutMs: 60_000, cpuProfileDir });
  const client = new PooledRpcClient(server.rpcUrl, options.agents + 1);
  try {
    const { mpcContractId, agentContractId, account: root } = server;
    if (!mpcContractId || !agentContractId) {
      throw new Error('the --mpc ready line names no mpcContractId / agentContractId');
    }
    if (!root) throw new Error('the ready line gave no genesis account key');

    const setupStart = performance.now();
    const agents = await createSigners(client, root, options.agents, 'agent');
    await sendFinal(rootSigner(client, root), agentContractId, [
      callAction('approve_codehash', { codehash: CODEHASH }),
    ]);
    await Promise.all(
      agents.map(async (agent) => {
        const outcome = await sendFinal(agent, agentContractId, [
          callAction('register_agent', { codehash: CODEHASH }),
        ]);
        if (decodeValue(outcome) !== 'true') {
          throw new Error(`register_agent ${agent.accountId} answered ${decodeValue(outcome)}`);
        }
      }),
    );
    const setupMs = performance.now() - setupStart;

    const rootPublicKey = await viewString(client, mpcContractId, 'public_key', { domain_id: 0 });
    const derived = najToSecp256k1PublicKey(
      derivedPublicKey(rootPublicKey, agentContractId, options.path, 0),
    );
    const run = crypto.getRandomValues(new Uint8Array(24));
    const counters = new Array<number>(agents.length).fill(0);
    let verified = 0;
    const statuses: Record<string, number> = {};

    let latestBlockHash: string | undefined;
    /** One request from agent `i`: the time from posting send_tx to its parsed answer, ms. */
    const request = async (i: number): Promise<number> => {
      const agent = agents[i];
      const payload = payloadFor(i, counters[i]++, run);
      // Signed before the clock starts: only send_tx is timed.
      const tx = await agent.sign(agentContractId, [
        callAction('request_signature', {
          path: options.path,
          payload: hexEncode(payload),
          key_type: 'Ecdsa',
        }),
      ]);
      const started = performance.now();
      const outcome: ExecutedOutcome = await sendTransaction(client, tx.base64, 'EXECUTED');
      const elapsed = performance.now() - started;
      if (outcome.status?.SuccessValue === undefined) {
        throw new Error(`request_signature failed: ${JSON.stringify(outcome.status).slice(0, 300)}`);
      }
      if (outcome.final_execution_status !== 'EXECUTED' && outcome.final_execution_status !== 'FINAL') {
        throw new Error(`send_tx answered at ${outcome.final_execution_status}, not EXECUTED`);
      }
      const response = parseEcdsaSignatureResponse(decodeValue(outcome));
      const recovered = recoverEcdsaPublicKey(response, payload);
      if (!recovered || hexEncode(recovered) !== hexEncode(derived)) {
        throw new Error('the signature does not recover to the key derived for (agent contract, path)');
      }
      verified++;
      statuses[outcome.final_execution_status] = (statuses[outcome.final_execution_status] ?? 0) + 1;
      agent.useBlockHash(outcome.transaction_outcome.block_hash);
      latestBlockHash = outcome.transaction_outcome.block_hash;
      return elapsed;
    };

    let sequential: ChainsigResult['sequential'];
    try {
      for (let n = 0; n < options.warmup; n++) await request(0);
      const samples: number[] = [];
      const t0 = performance.now();
      for (let n = 0; n < options.requests; n++) samples.push(await request(0));
      sequential = {
        warmup: options.warmup,
        requests: options.requests,
        medianMs: median(samples),
        latency: summarize(samples),
        totalMs: performance.now() - t0,
      };
    } catch (error) {
      sequential = errorOf(error);
    }

    let concurrent: ChainsigResult['concurrent'];
    try {
      const each = async (i: number, count: number, into: number[]) => {
        for (let n = 0; n < count; n++) into.push(await request(i));
      };
      // The other agents last signed at setup: agent 0's requests made hundreds of blocks since, more than a
      // transaction's validity period (100 blocks), so they take its latest block hash.
      if (latestBlockHash) for (const agent of agents) agent.useBlockHash(latestBlockHash);
      await Promise.all(agents.map((_, i) => each(i, options.warmupPerAgent, [])));
      const samples: number[] = [];
      const t0 = performance.now();
      await Promise.all(agents.map((_, i) => each(i, options.requestsPerAgent, samples)));
      const wallMs = performance.now() - t0;
      concurrent = {
        agents: agents.length,
        warmupPerAgent: options.warmupPerAgent,
        requestsPerAgent: options.requestsPerAgent,
        requests: samples.length,
        wallMs,
        perSecond: samples.length / (wallMs / 1000),
        latency: summarize(samples),
      };
    } catch (error) {
      concurrent = errorOf(error);
    }

    return {
      signer: signerWasm === undefined ? 'built-in' : (signerWasm.split('/').pop() ?? signerWasm),
      mpcContractId,
      agentContractId,
      path: options.path,
      readyMs: server.readyMs,
      setupMs,
      verified,
      statuses,
      sequential,
      concurrent,
      rssAfterBytes: readMemory(server.pid)?.rssBytes,
    };
  } finally {
    await client.pool.destroy();
    await server.stop();
  }
}

/** A view call returning a JSON string (e.g. the signer's `public_key`). */
export async function viewString(client: RpcClient, contract: string, method: string, args: unknown) {
  const value = await viewFunction(client, contract, method, args, { finality: 'optimistic' });
  if (typeof value !== 'string') throw new Error(`${contract}.${method} answered ${JSON.stringify(value)}`);
  return value;
}
