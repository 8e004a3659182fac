/**
 * The `agent` phase (Shadebox only; anvil has no equivalent): the local stack of `shadebox up` and its agent
 * API (packages/agent-api, docs/agent-api.md).
 *
 * - up to agent-ready: `shadebox up --memory --rpc-port 0 --agent-port 0 --json` spawned `runs` times, each
 *   timed from spawn to its `{"event":"agent-ready"}` line (the agent account funded by test.near and
 *   registered in the agent contract) and stopped before the next; the median is the target's measure. The
 *   time to the first `{"event":"ready"}` line is kept too.
 * - getAccountId: on a further stack (the one profiled with --profile), `POST {agentApiUrl}/getAccountId`
 *   with an empty body through the raw keep-alive sockets of the read metric (raw-http.ts), `concurrency`
 *   connections in a closed loop; each answer must be HTTP 200 with `accountId` equal to the agent-ready
 *   line's `agentAccountId`.
 * - request_signature: on the same stack, `POST {agentApiUrl}/call {"methodName": "request_signature",
 *   "args": {"path", "payload": <64 hex digits, distinct per request>, "key_type": "Ecdsa"}}`, one at a time
 *   (one raw keep-alive connection), `warmup` requests then `requests` measured; the clock runs from writing
 *   the request to the whole answer. Each answer must be HTTP 200 holding a Secp256k1 signature response, and
 *   (checked after the clock stops) its signature must recover (low S) to the key derived for (agent
 *   contract, path) from the signer's `public_key({"domain_id": 0})`.
 */
import { derivedPublicKey, najToSecp256k1PublicKey, recoverEcdsaPublicKey } from '@shadebox/mpc';
import { hexEncode } from '@shadebox/primitives';
import { type LatencySummary, type LoadResult, median, runClosedLoop, summarize } from '../load.js';
import { spawnTracked, type TrackedChild } from '../processes.js';
import { RawHttpClients } from '../raw-http.js';
import { PooledRpcClient } from '../rpc.js';
import { type Launcher, REPO_ROOT, shadeboxCommand } from '../shadebox-node.js';
import { parseEcdsaSignatureResponse, viewString } from './chainsig.js';
import { serverProbes } from './cpu.js';
import { readMemory } from './memory.js';

export const AGENT_DEFAULTS = {
  /** `shadebox up` starts timed to agent-ready; the median is reported. */
  upRuns: 3,
  /** request_signature through /call: warm-up requests, then measured ones, one at a time. */
  signWarmup: 5,
  signRequests: 50,
  path: 'bench-agent',
} as const;

const UP_TIMEOUT_MS = 60_000;

export interface AgentUpResult {
  runs: number;
  /** Spawn to the agent-ready line, ms, per run. */
  samplesMs: number[];
  medianMs: number;
  /** Spawn to the ready line (node and contracts up, agent API listening but booting), ms, per run. */
  readySamplesMs: number[];
  medianReadyMs: number;
}

export interface AgentSignResult {
  warmup: number;
  requests: number;
  medianMs: number;
  latency: LatencySummary;
  /** Answers parsed as Secp256k1 responses whose signature recovers to the derived key (warm-ups included). */
  verified: number;
}

export interface AgentResult {
  up: AgentUpResult | { error: string };
  getAccountId: LoadResult | { error: string };
  requestSignature: AgentSignResult | { error: string };
  /** RSS of the measured stack's process after the getAccountId and request_signature runs. */
  rssAfterBytes?: number;
}

interface Stack {
  child: TrackedChild;
  readyMs: number;
  agentReadyMs: number;
  rpcUrl: string;
  agentApiUrl: string;
  agentAccountId: string;
  agentContractId: string;
  mpcContractId: string;
}

/** Spawns `shadebox up --memory --rpc-port 0 --agent-port 0 --json` and waits for its agent-ready line. */
async function startStack(launcher: Launcher, cpuProfileDir?: string): Promise<Stack> {
  const { command, args, env } = shadeboxCommand({
    launcher,
    subcommand: 'up',
    extraArgs: ['--agent-port', '0'],
    cpuProfileDir,
  });
  const child = spawnTracked(command, args, { cwd: REPO_ROOT, env, keepStdinOpen: true });
  // One listener sees both lines, so the agent-ready line cannot slip by between two waits.
  let ready: { at: number; json: Record<string, unknown> } | undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  try {
    const { value, at } = await child.waitForLine((line) => {
      if (!line.startsWith('{')) return undefined;
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return undefined;
      }
      if (json.event === 'ready') ready = { at: performance.now(), json };
      return json.event === 'agent-ready' ? text(json.agentAccountId) : undefined;
    }, UP_TIMEOUT_MS);
    if (!ready) throw new Error('agent-ready came before the ready line');
    const rpcUrl = text(ready.json.rpcUrl);
    const agentApiUrl = text(ready.json.agentApiUrl);
    const agentContractId = text(ready.json.agentContractId);
    const mpcContractId = text(ready.json.mpcContractId);
    if (!rpcUrl || !agentApiUrl || !agentContractId || !mpcContractId) {
      throw new Error(
        `the ready line lacks rpcUrl/agentApiUrl/agentContractId/mpcContractId: ${JSON.stringify(ready.json)}`,
      );
    }
    return {
      child,
      readyMs: ready.at - child.spawnedAt,
      agentReadyMs: at - child.spawnedAt,
      rpcUrl,
      agentApiUrl,
      agentAccountId: value,
      agentContractId,
      mpcContractId,
    };
  } catch (error) {
    await child.stop(500);
    throw error;
  }
}

const errorOf = (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) });
const round = (ms: number) => Math.round(ms * 10) / 10;

export async function measureUpToAgentReady(launcher: Launcher, runs: number): Promise<AgentUpResult> {
  const samples: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < runs; i++) {
    const stack = await startStack(launcher);
    samples.push(stack.agentReadyMs);
    ready.push(stack.readyMs);
    await stack.child.stop();
  }
  return {
    runs,
    samplesMs: samples.map(round),
    medianMs: round(median(samples)),
    readySamplesMs: ready.map(round),
    medianReadyMs: round(median(ready)),
  };
}

export interface AgentLoadOptions {
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  cpuProfileDir?: string;
}

export async function measureAgent(
  launcher: Launcher,
  load: AgentLoadOptions,
  options: typeof AGENT_DEFAULTS = AGENT_DEFAULTS,
  progress: (message: string) => void = () => undefined,
): Promise<AgentResult> {
  progress(`Shadebox: shadebox up to agent-ready x${options.upRuns}`);
  let up: AgentResult['up'];
  try {
    up = await measureUpToAgentReady(launcher, options.upRuns);
  } catch (error) {
    up = errorOf(error);
  }

  let stack: Stack;
  try {
    stack = await startStack(launcher, load.cpuProfileDir);
  } catch (error) {
    const failed = errorOf(error);
    return { up, getAccountId: failed, requestSignature: failed };
  }
  try {
    const pid = stack.child.pid;
    const base = new URL(stack.agentApiUrl);
    const basePath = base.pathname.replace(/\/$/, '');

    progress(`Shadebox: agent API getAccountId at ${load.concurrency} connections`);
    let getAccountId: AgentResult['getAccountId'];
    const clients = new RawHttpClients(stack.agentApiUrl, load.concurrency);
    try {
      const request = clients.post(`${basePath}/getAccountId`, '');
      getAccountId = await runClosedLoop({
        concurrency: load.concurrency,
        warmupMs: load.warmupMs,
        durationMs: load.durationMs,
        drainTimeoutMs: 5000,
        probes: serverProbes(pid),
        operation: async (worker) => {
          const { status, body } = await clients.request(worker, request);
          const answer = JSON.parse(body.toString('utf8')) as { accountId?: unknown };
          if (status !== 200 || answer.accountId !== stack.agentAccountId) {
            throw new Error(`HTTP ${status}: ${body.toString('utf8').slice(0, 200)}`);
          }
        },
      });
    } catch (error) {
      getAccountId = errorOf(error);
    } finally {
      clients.close();
    }

    progress(
      `Shadebox: agent API /call request_signature, ${options.signWarmup} + ${options.signRequests} one at a time`,
    );
    let requestSignature: AgentResult['requestSignature'];
    const one = new RawHttpClients(stack.agentApiUrl, 1);
    const rpc = new PooledRpcClient(stack.rpcUrl, 1);
    try {
      const answers: { payload: Uint8Array; body: string }[] = [];
      const sign = async (): Promise<number> => {
        const payload = crypto.getRandomValues(new Uint8Array(32));
        const bytes = one.post(
          `${basePath}/call`,
          JSON.stringify({
            methodName: 'request_signature',
            args: { path: options.path, payload: hexEncode(payload), key_type: 'Ecdsa' },
          }),
          'application/json',
        );
        const started = performance.now();
        const { status, body } = await one.request(0, bytes);
        const elapsed = performance.now() - started;
        const text = body.toString('utf8');
        if (status !== 200) throw new Error(`/call request_signature: HTTP ${status}: ${text.slice(0, 300)}`);
        parseEcdsaSignatureResponse(text);
        answers.push({ payload, body: text });
        return elapsed;
      };
      for (let n = 0; n < options.signWarmup; n++) await sign();
      const samples: number[] = [];
      for (let n = 0; n < options.signRequests; n++) samples.push(await sign());

      // After the clock: every signature must recover to the key derived for (agent contract, path).
      const rootKey = await viewString(rpc, stack.mpcContractId, 'public_key', { domain_id: 0 });
      const derived = hexEncode(
        najToSecp256k1PublicKey(derivedPublicKey(rootKey, stack.agentContractId, options.path, 0)),
      );
      for (const { payload, body } of answers) {
        const recovered = recoverEcdsaPublicKey(parseEcdsaSignatureResponse(body), payload);
        if (!recovered || hexEncode(recovered) !== derived) {
          throw new Error('a signature does not recover to the key derived for (agent contract, path)');
        }
      }
      requestSignature = {
        warmup: options.signWarmup,
        requests: samples.length,
        medianMs: median(samples),
        latency: summarize(samples),
        verified: answers.length,
      };
    } catch (error) {
      requestSignature = errorOf(error);
    } finally {
      one.close();
      await rpc.pool.destroy();
    }
    return { up, getAccountId, requestSignature, rssAfterBytes: readMemory(pid)?.rssBytes };
  } finally {
    await stack.child.stop();
  }
}
