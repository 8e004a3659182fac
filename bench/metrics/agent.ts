/**
 * `agent` phase (Shadebox only): the local stack of `shadebox up` and its agent API (docs/agent-api.md).
 *
 * - up: `shadebox up --memory --rpc-port 0 --agent-port 0 --json`, spawn to its `agent-ready` line (the agent
 *   account funded and registered), the median of 3.
 * - getAccountId: on one more stack, `POST {agentApiUrl}/getAccountId` from `concurrency` keep-alive
 *   connections; each answer must name the agent-ready line's account.
 * - request_signature one at a time: `POST {agentApiUrl}/call {"methodName":"request_signature","args":{"path",
 *   "payload": <32 random bytes, hex>,"key_type":"Ecdsa"}}` on one connection, 5 warm-ups then 50 timed from
 *   writing the request to the whole answer; p50.
 * - 8 agents: the stack's agent API and 7 more (bench/agent-apis.ts, one process, each its own agent account
 *   registered with the stack's codehash), each sending its requests one at a time, 2 warm-ups then 25 each;
 *   requests/s = measured requests / wall time from the first measured request to the last answer.
 * Every answer must be HTTP 200 holding a Secp256k1 signature response that recovers (low S), checked after the
 * clock stops, to the key derived for (agent contract, path) from the signer's `public_key`.
 */
import {
  derivedPublicKey,
  type EcdsaSignatureResponse,
  najToSecp256k1PublicKey,
  recoverEcdsaPublicKey,
} from '@shadebox/mpc';
import { hexEncode } from '@shadebox/primitives';
import {
  type LatencySummary,
  type LoadResult,
  type LoadSettings,
  median,
  runClosedLoop,
  summarize,
} from '../load.js';
import { viewString } from '../near-signers.js';
import { readMemory, serverProbes } from '../proc.js';
import { spawnTracked, type TrackedChild } from '../processes.js';
import { RawHttpClients } from '../raw-http.js';
import { PooledRpcClient } from '../rpc.js';
import { type Launcher, REPO_ROOT, shadeboxCommand } from '../shadebox-node.js';

const UP_RUNS = 3;
const SIGN = { warmup: 5, requests: 50, agents: 8, warmupPerAgent: 2, requestsPerAgent: 25 };
const PATH = 'bench-agent';
/** The codehash the stack approves and every agent registers with (AGENT_CODEHASH). */
const CODEHASH = 'bench'.padEnd(64, '0');
const UP_TIMEOUT_MS = 60_000;

export interface AgentResult {
  /** Spawn to agent-ready, ms, per run, and the median. */
  up: { samplesMs: number[]; medianMs: number } | { error: string };
  getAccountId: LoadResult | { error: string };
  /** One at a time through the stack's agent API. */
  sequential: { requests: number; medianMs: number; latency: LatencySummary } | { error: string };
  /** `SIGN.agents` agents at once, each one at a time. */
  concurrent:
    | { agents: number; requests: number; wallMs: number; perSecond: number; latency: LatencySummary }
    | { error: string };
  /** RSS of the measured stack after all of it. */
  rssAfterBytes?: number;
}

interface Stack {
  child: TrackedChild;
  agentReadyMs: number;
  ready: Record<string, unknown>;
  agentApiUrl: string;
  agentAccountId: string;
}

/** Spawns `shadebox up --memory --rpc-port 0 --agent-port 0 --json` and waits for its agent-ready line. */
async function startStack(launcher: Launcher, cpuProfileDir?: string): Promise<Stack> {
  const { command, args, env } = shadeboxCommand({
    launcher,
    subcommand: 'up',
    extraArgs: ['--agent-port', '0'],
    cpuProfileDir,
  });
  const child = spawnTracked(command, args, {
    cwd: REPO_ROOT,
    env: { ...env, AGENT_CODEHASH: CODEHASH },
    keepStdinOpen: true,
  });
  // One listener sees both lines, so the agent-ready line cannot slip by between two waits.
  let ready: Record<string, unknown> | undefined;
  try {
    const { value, at } = await child.waitForLine((line) => {
      if (!line.startsWith('{')) return undefined;
      const json = JSON.parse(line) as Record<string, unknown>;
      if (json.event === 'ready') ready = json;
      return json.event === 'agent-ready' ? String(json.agentAccountId) : undefined;
    }, UP_TIMEOUT_MS);
    if (!ready || typeof ready.agentApiUrl !== 'string') throw new Error('no ready line with agentApiUrl');
    return {
      child,
      agentReadyMs: at - child.spawnedAt,
      ready,
      agentApiUrl: ready.agentApiUrl,
      agentAccountId: value,
    };
  } catch (error) {
    await child.stop(500);
    throw error;
  }
}

const errorOf = (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) });

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

/** One agent API's request_signature client on one keep-alive connection; keeps every answer to verify. */
class Signer {
  private readonly http: RawHttpClients;
  private readonly path: string;
  readonly answers: { payload: Uint8Array; body: string }[] = [];
  constructor(agentApiUrl: string) {
    this.http = new RawHttpClients(agentApiUrl, 1);
    this.path = `${new URL(agentApiUrl).pathname.replace(/\/$/, '')}/call`;
  }
  /** One request; resolves with its latency, ms. */
  async sign(): Promise<number> {
    const payload = crypto.getRandomValues(new Uint8Array(32));
    const args = { path: PATH, payload: hexEncode(payload), key_type: 'Ecdsa' };
    const bytes = this.http.post(
      this.path,
      JSON.stringify({ methodName: 'request_signature', args }),
      'application/json',
    );
    const started = performance.now();
    const { status, body } = await this.http.request(0, bytes);
    const elapsed = performance.now() - started;
    const text = body.toString('utf8');
    if (status !== 200) throw new Error(`/call request_signature: HTTP ${status}: ${text.slice(0, 300)}`);
    this.answers.push({ payload, body: text });
    return elapsed;
  }
  close() {
    this.http.close();
  }
}

/** Throws unless every answer is a signature that recovers to the key derived for (agent contract, path). */
async function verify(stack: Stack, signers: Signer[]): Promise<void> {
  const rpc = new PooledRpcClient(String(stack.ready.rpcUrl), 1);
  try {
    const rootKey = await viewString(rpc, String(stack.ready.mpcContractId), 'public_key', { domain_id: 0 });
    const derived = hexEncode(
      najToSecp256k1PublicKey(derivedPublicKey(rootKey, String(stack.ready.agentContractId), PATH, 0)),
    );
    for (const s of signers) {
      for (const { payload, body } of s.answers) {
        const recovered = recoverEcdsaPublicKey(parseEcdsaSignatureResponse(body), payload);
        if (!recovered || hexEncode(recovered) !== derived) {
          throw new Error('a signature does not recover to the key derived for (agent contract, path)');
        }
      }
    }
  } finally {
    await rpc.close();
  }
}

async function sequential(stack: Stack): Promise<AgentResult['sequential']> {
  const signer = new Signer(stack.agentApiUrl);
  try {
    for (let n = 0; n < SIGN.warmup; n++) await signer.sign();
    const samples: number[] = [];
    for (let n = 0; n < SIGN.requests; n++) samples.push(await signer.sign());
    await verify(stack, [signer]);
    return { requests: samples.length, medianMs: median(samples), latency: summarize(samples) };
  } finally {
    signer.close();
  }
}

async function concurrent(stack: Stack): Promise<AgentResult['concurrent']> {
  const fundingKey = (stack.ready.accounts as { accountId: string; secretKey: string }[])[0];
  const more = spawnTracked(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', `${REPO_ROOT}/bench/agent-apis.ts`, String(SIGN.agents - 1)],
    {
      cwd: REPO_ROOT,
      keepStdinOpen: true,
      env: {
        ...process.env,
        CHAIN_ACCOUNT_ID: fundingKey.accountId,
        CHAIN_ACCOUNT_SECRET_KEY: fundingKey.secretKey,
        AGENT_CONTRACT_ID: String(stack.ready.agentContractId),
        NEAR_RPC_URL: String(stack.ready.rpcUrl),
        AGENT_CODEHASH: CODEHASH,
      },
    },
  );
  const signers: Signer[] = [];
  try {
    const { value: agents } = await more.waitForLine((line) => {
      if (!line.startsWith('{')) return undefined;
      return (JSON.parse(line) as { agents?: { url: string }[] }).agents;
    }, UP_TIMEOUT_MS);
    signers.push(new Signer(stack.agentApiUrl), ...agents.map((a) => new Signer(a.url)));
    await Promise.all(
      signers.map(async (s) => {
        for (let n = 0; n < SIGN.warmupPerAgent; n++) await s.sign();
      }),
    );
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      signers.map(async (s) => {
        for (let n = 0; n < SIGN.requestsPerAgent; n++) latencies.push(await s.sign());
      }),
    );
    const wallMs = performance.now() - t0;
    await verify(stack, signers);
    return {
      agents: signers.length,
      requests: latencies.length,
      wallMs,
      perSecond: latencies.length / (wallMs / 1000),
      latency: summarize(latencies),
    };
  } finally {
    for (const s of signers) s.close();
    await more.stop();
  }
}

export async function measureAgent(
  launcher: Launcher,
  load: LoadSettings,
  cpuProfileDir: string | undefined,
  progress: (message: string) => void,
): Promise<AgentResult> {
  progress(`shadebox up to agent-ready x${UP_RUNS}`);
  let up: AgentResult['up'];
  try {
    const samples: number[] = [];
    for (let i = 0; i < UP_RUNS; i++) {
      const stack = await startStack(launcher);
      samples.push(stack.agentReadyMs);
      await stack.child.stop();
    }
    up = { samplesMs: samples.map((s) => Math.round(s * 10) / 10), medianMs: median(samples) };
  } catch (error) {
    up = errorOf(error);
  }
  let stack: Stack;
  try {
    stack = await startStack(launcher, cpuProfileDir);
  } catch (error) {
    const failed = errorOf(error);
    return { up, getAccountId: failed, sequential: failed, concurrent: failed };
  }
  try {
    progress(`agent API getAccountId at ${load.concurrency} connections`);
    let getAccountId: AgentResult['getAccountId'];
    const clients = new RawHttpClients(stack.agentApiUrl, load.concurrency);
    try {
      const request = clients.post(
        `${new URL(stack.agentApiUrl).pathname.replace(/\/$/, '')}/getAccountId`,
        '',
      );
      getAccountId = await runClosedLoop({
        ...load,
        drainTimeoutMs: 5000,
        probes: serverProbes(stack.child.pid),
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
    progress(`agent API request_signature: ${SIGN.warmup} + ${SIGN.requests} one at a time`);
    const one = await sequential(stack).catch(errorOf);
    progress(
      `agent API request_signature: ${SIGN.agents} agents x (${SIGN.warmupPerAgent} + ${SIGN.requestsPerAgent})`,
    );
    const many = await concurrent(stack).catch(errorOf);
    return {
      up,
      getAccountId,
      sequential: one,
      concurrent: many,
      rssAfterBytes: readMemory(stack.child.pid)?.rssBytes,
    };
  } finally {
    await stack.child.stop();
  }
}
