/**
 * A fuzz run: starts `shadebox up`, sends `requests` cases (or for `seconds`) from `concurrency` workers, checks
 * every answer's status and shape, watches that both surfaces stay up and samples the RSS, then checks the
 * chain (and, on a disk home, that a restart reopens the same chain). Case `i` is built from `Random.forCase
 * (seed, i)` alone, so `--seed S --case i` sends it again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { type AgentRoute, agentCase } from './agent-cases.js';
import { agentBurst, rpcBurst, runBurst } from './burst.js';
import { type ChainCheckResult, checkChain, compareAfterRestart, waitQuiet } from './chain-check.js';
import { sendCase } from './http-send.js';
import { Known } from './known.js';
import { Random } from './random.js';
import { agentTarget, type RawCase, type RawTarget, rawCase, rpcTarget, runRawCase } from './raw-cases.js';
import { type HttpCase, rpcCase, wantsTransaction } from './rpc-cases.js';
import { type Answer, checkAgentAnswer, checkRpcAnswer, type Verdict } from './shapes.js';
import { type Stack, startStack } from './stack.js';
import { TransactionFactory } from './transactions.js';

export interface FuzzOptions {
  seed: number;
  /** Stop after this many HTTP requests (each request of a burst counts). */
  requests: number;
  /** Stop after this long, in seconds. */
  seconds: number;
  concurrency: number;
  /** Run on a temporary disk home and check a restart reopens the same chain. */
  restartCheck: boolean;
  /** Only this case index (a reproducer). */
  onlyCase?: number;
  fromSource: boolean;
  /** RSS above this is a violation. */
  maxRssMb: number;
  bursts: BurstShape;
  progress?: (line: string) => void;
}

export interface Violation {
  case: number;
  surface: string;
  label: string;
  violation: string;
  request: string;
  answer: string;
  /** How many cases had this same violation (the first is shown). */
  count: number;
}

export interface FuzzReport {
  seed: number;
  /** The options that decide which case an index is (a reproducer repeats them). */
  caseOptions: string;
  /** HTTP requests sent (a burst's each count). */
  requests: number;
  cases: number;
  seconds: number;
  concurrency: number;
  byLabel: Record<string, number>;
  byShape: Record<string, number>;
  violations: Violation[];
  /** Problems of the run as a whole (a process down, memory, the chain). */
  runViolations: string[];
  rss: { startMb: number; maxMb: number; endMb: number; samples: number };
  chain?: { genesisHeight: number; head: number; blocks: number; accounts: number; restartChecked: boolean };
  errorLogLines: number;
  errorLogSample: string[];
  exitCode: number | null;
  transactions: number;
  /** Time the workers spent on each surface's cases, in seconds (summed over workers). */
  secondsBySurface: Record<string, number>;
}

/** How much of a run goes in bursts: the share of cases (percent) and the largest burst. */
export interface BurstShape {
  sharePercent: number;
  maxSize: number;
}

type Kind = 'rpc' | 'agent' | 'raw-rpc' | 'raw-agent' | 'burst-rpc' | 'burst-agent';

/** Cases by kind. A burst carries 20 to 200 requests, so with these weights about nine requests in ten go in
 * bursts (see burst.ts); the other kinds are one request each (pipelined raw cases up to eight). */
function weights(share: number): ReadonlyArray<readonly [number, Kind]> {
  const rest = (100 - share) / 100;
  return [
    [50 * rest, 'rpc'],
    [22 * rest, 'agent'],
    [9 * rest, 'raw-rpc'],
    [9 * rest, 'raw-agent'],
    [share * 0.7, 'burst-rpc'],
    [share * 0.3, 'burst-agent'],
  ];
}

export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const progress = o.progress ?? (() => undefined);
  const home = o.restartCheck ? mkdtempSync(join(tmpdir(), 'shadebox-fuzz-')) : undefined;
  let stack: Stack | undefined;
  const runViolations: string[] = [];
  try {
    stack = await startStack({ home, fromSource: o.fromSource, waitAgent: true });
    const ready = stack.ready;
    progress(
      `stack up: rpc ${ready.rpcUrl}, agent ${ready.agentApiUrl}, agent account ${ready.agentAccountId}`,
    );
    const rpcOrigin = new URL(ready.rpcUrl);
    const agentOrigin = new URL(ready.agentApiUrl);
    const call = rpcCaller(ready.rpcUrl);
    const metrics = () => fetch(`${ready.rpcUrl}/metrics`).then((r) => r.text());

    const known = new Known();
    for (const a of ready.accounts) {
      known.add(known.accounts, a.accountId);
      known.add(known.publicKeys, a.publicKey);
    }
    for (const id of [
      ready.agentContractId,
      ready.mpcContractId,
      ready.agentAccountId!,
      'nobody.test.near',
      'near',
    ])
      known.add(known.accounts, id);
    known.block(await call('block', { finality: 'final' }));
    const root = ready.accounts[0];
    const txs = new TransactionFactory(call, root.accountId, root.secretKey, ready.agentContractId, o.seed);
    await txs.init();
    for (const id of txs.receivers.slice(0, 3)) known.add(known.accounts, id);

    const openapi = (await fetch(`${ready.agentApiUrl}/openapi.json`).then((r) => r.json())) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes: AgentRoute[] = Object.entries(openapi.paths).flatMap(([path, verbs]) =>
      Object.keys(verbs).map((verb) => ({
        path: `${agentOrigin.pathname}${path}`,
        method: verb.toUpperCase(),
      })),
    );
    const targets: Record<'rpc' | 'agent', RawTarget> = {
      rpc: rpcTarget(Number(rpcOrigin.port)),
      agent: agentTarget(Number(agentOrigin.port)),
    };
    const pools = {
      rpc: new Pool(rpcOrigin.origin, {
        connections: o.concurrency,
        pipelining: 1,
        keepAliveTimeout: 60_000,
      }),
      agent: new Pool(agentOrigin.origin, {
        connections: o.concurrency,
        pipelining: 1,
        keepAliveTimeout: 60_000,
      }),
    };

    const byLabel: Record<string, number> = {};
    const byShape: Record<string, number> = {};
    const violations = new Map<string, Violation>();
    const count = (map: Record<string, number>, key: string) => {
      map[key] = (map[key] ?? 0) + 1;
    };
    const record = (
      index: number,
      surface: string,
      label: string,
      request: string,
      verdict: Verdict,
      answer: string,
    ) => {
      count(byLabel, label);
      count(byShape, `${surface} ${verdict.shape}`);
      if (!verdict.violation) return;
      const key = `${label.split('+')[0]} ${verdict.violation.slice(0, 80)}`;
      const seen = violations.get(key);
      if (seen) seen.count++;
      else if (violations.size < 200) {
        violations.set(key, {
          case: index,
          surface,
          label,
          violation: verdict.violation,
          request: request.slice(0, 2000),
          answer: answer.slice(0, 1000),
          count: 1,
        });
      }
    };

    // Liveness and memory, sampled while the run goes on.
    const rss = { startMb: stack.rss() / 2 ** 20, maxMb: 0, endMb: 0, samples: 0 };
    let liveness = Promise.resolve();
    let stopped = false;
    const sampler = setInterval(() => {
      const mb = stack!.rss() / 2 ** 20;
      rss.samples++;
      if (mb > rss.maxMb) rss.maxMb = mb;
      if (rss.samples % 5 === 0) {
        liveness = liveness.then(() =>
          checkAlive(stack!, ready.rpcUrl, ready.agentApiUrl).then((problem) => {
            if (problem && !stopped) runViolations.push(problem);
          }),
        );
      }
    }, 1000);

    const WEIGHTS = weights(o.bursts.sharePercent);
    const started = Date.now();
    const deadline = started + o.seconds * 1000;
    let next = o.onlyCase ?? 0;
    const last = o.onlyCase !== undefined ? o.onlyCase + 1 : Number.MAX_SAFE_INTEGER;
    let sent = 0;
    let requestsSent = 0;
    let sentTxs = 0;
    let lastProgress = Date.now();

    const one = async (index: number) => {
      const t0 = performance.now();
      const r = Random.forCase(o.seed, index);
      try {
        const n = await oneCase(index, r);
        requestsSent += n;
      } finally {
        const surface = Random.forCase(o.seed, index).weighted(WEIGHTS);

        timeBySurface[surface] = (timeBySurface[surface] ?? 0) + (performance.now() - t0) / 1000;
      }
    };
    const timeBySurface: Record<string, number> = {};

    const oneCase = async (index: number, r: Random): Promise<number> => {
      const surface = r.weighted(WEIGHTS);
      if (surface === 'burst-rpc' || surface === 'burst-agent') {
        const size = r.range(20, o.bursts.maxSize);
        const burst =
          surface === 'burst-rpc'
            ? rpcBurst(r, known, size)
            : agentBurst(r, known, routes, agentOrigin.pathname, ready.agentAccountId!, size);
        const port = surface === 'burst-rpc' ? targets.rpc.port : targets.agent.port;
        const { verdicts } = await runBurst(port, burst, HTTP_TIMEOUT_MS);
        verdicts.forEach(({ verdict, answer }, j) => {
          const c = burst.cases[j];
          record(
            index,
            c.surface,
            `${c.label} (in a burst)`,
            `request ${j + 1} of case ${index}: ${c.describe}`,
            verdict,
            answer,
          );
        });
        return burst.cases.length;
      }
      if (surface === 'rpc') {
        const tx = wantsTransaction(r) ? await txs.next(r) : undefined;
        if (tx) sentTxs++;
        const c = rpcCase(r, known, tx);
        await runHttp(index, c, pools.rpc, record);
      } else if (surface === 'agent') {
        const c = agentCase(r, known, routes, agentOrigin.pathname, ready.agentAccountId!);
        await runHttp(index, c, pools.agent, record);
      } else {
        const which = surface === 'raw-rpc' ? 'rpc' : 'agent';
        const c = rawCase(r, which, targets[which], index);
        await runRaw(index, c, targets[which].port, record);
        return c.answers ?? 1;
      }
      return 1;
    };

    const worker = async () => {
      while (next < last && requestsSent < o.requests && Date.now() < deadline && stack!.alive()) {
        const index = next++;
        try {
          await one(index);
        } catch (e) {
          // A bug of the fuzzer itself: reported, and the run goes on.
          record(
            index,
            'fuzzer',
            'fuzzer',
            '',
            { shape: 'fuzzer error', violation: `fuzzer error: ${(e as Error).stack}` },
            '',
          );
        }
        sent++;
        if (Date.now() - lastProgress > 10_000) {
          lastProgress = Date.now();
          progress(
            `${requestsSent} requests (${sent} cases), ${sentTxs} transactions, ${((Date.now() - started) / 1000).toFixed(0)} s, RSS ${(stack!.rss() / 2 ** 20).toFixed(0)} MB, ${violations.size} distinct violations`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    await liveness;
    const finalProblem = await checkAlive(stack, ready.rpcUrl, ready.agentApiUrl);
    if (finalProblem) runViolations.push(finalProblem);
    rss.endMb = stack.rss() / 2 ** 20;
    if (rss.maxMb > o.maxRssMb)
      runViolations.push(`RSS reached ${rss.maxMb.toFixed(0)} MB (limit ${o.maxRssMb} MB)`);
    await Promise.all([pools.rpc.close(), pools.agent.close()]);
    progress(`sent ${requestsSent} requests (${sent} cases) in ${seconds.toFixed(1)} s; checking the chain`);

    let chain: FuzzReport['chain'];
    if (stack.alive()) {
      const head = await waitQuiet(call, metrics);
      // Genesis holds the dev accounts too: their balances are part of the supply.
      const genesisAccounts = [...ready.accounts, ...(ready.devAccounts ?? [])].map((a) => a.accountId);
      const result: ChainCheckResult = await checkChain(call, head, genesisAccounts);
      runViolations.push(...result.violations);
      chain = {
        genesisHeight: result.genesisHeight,
        head: result.head,
        blocks: result.blocks,
        accounts: result.accounts,
        restartChecked: false,
      };
      if (home) {
        progress(`restarting on ${home}`);
        const code = await stack.stop();
        if (code !== 0) runViolations.push(`shadebox up exited ${code} on SIGTERM (expected 0)`);
        const errorsBefore = stack.errorLines;
        stack = await startStack({ home, fromSource: o.fromSource, waitAgent: false });
        stack.errorLines.push(...errorsBefore);
        runViolations.push(...(await compareAfterRestart(rpcCaller(stack.ready.rpcUrl), result)));
        chain.restartChecked = true;
      }
    }
    stopped = true;
    const exitCode = await stack.stop();
    if (exitCode !== 0) runViolations.push(`shadebox up exited ${exitCode} on SIGTERM (expected 0)`);
    return {
      seed: o.seed,
      caseOptions: `--seed ${o.seed} --burst-share ${o.bursts.sharePercent} --burst-max ${o.bursts.maxSize}`,
      requests: requestsSent,
      cases: sent,
      seconds,
      concurrency: o.concurrency,
      byLabel: sortKeys(byLabel),
      byShape: sortKeys(byShape),
      violations: [...violations.values()],
      runViolations,
      rss,
      chain,
      errorLogLines: stack.errorLines.length,
      errorLogSample: stack.errorLines.slice(0, 5),
      exitCode,
      transactions: sentTxs,
      secondsBySurface: Object.fromEntries(Object.entries(timeBySurface).map(([k, v]) => [k, Math.round(v)])),
    };
  } catch (e) {
    if (stack) {
      process.stderr.write(`${stack.tail()}\n`);
      await stack.stop(5000);
    }
    throw e;
  } finally {
    if (home) rmSync(home, { recursive: true, force: true });
  }
}

type Recorder = (
  index: number,
  surface: string,
  label: string,
  request: string,
  verdict: Verdict,
  answer: string,
) => void;

const HTTP_TIMEOUT_MS = 60_000;

async function runHttp(index: number, c: HttpCase, pool: Pool, record: Recorder): Promise<void> {
  const answer = await sendCase(pool, c, HTTP_TIMEOUT_MS);
  let verdict: Verdict;
  if ('error' in answer) {
    // A server may answer a body it refuses (413) before reading it, and close: the upload then fails.
    const large = (c.body?.length ?? 0) > 1024 * 1024;
    verdict = large
      ? { shape: 'closed before the body was sent' }
      : { shape: `transport ${answer.error}`, violation: `no answer: ${answer.error}` };
  } else if (c.surface === 'rpc') {
    verdict = checkRpcAnswer(answer, c.rpc);
    if (!verdict.violation && answer.status === 200 && c.learn) {
      try {
        c.learn((JSON.parse(answer.body.toString('utf8')) as { result?: unknown }).result);
      } catch {
        // the shape check has read it already
      }
    }
  } else {
    verdict = checkAgentAnswer(answer, { head: c.method === 'HEAD' });
  }
  record(
    index,
    c.surface,
    c.label,
    `${c.describe} headers ${JSON.stringify(c.headers)}`,
    verdict,
    'error' in answer ? answer.error : describeAnswer(answer),
  );
}

async function runRaw(index: number, c: RawCase, port: number, record: Recorder): Promise<void> {
  // Answers owed get the full wait; a case that owes none (truncated, reset, garbage) is done after 5 s of silence.
  const result = await runRawCase(port, c, c.answers !== undefined ? HTTP_TIMEOUT_MS : 5000);
  const problems: string[] = [];
  if (c.answers !== undefined && result.answers.length < c.answers) {
    problems.push(
      `${result.answers.length} of ${c.answers} answers (${result.error ?? (result.closed ? 'closed' : 'timed out')}; ${
        result.connected ? `${result.written} bytes written, ${result.read} read` : 'never connected'
      })`,
    );
  }
  for (const a of result.answers) {
    if (a.status === 0) problems.push('an answer without an HTTP/1.1 status line');
    else if (c.allowStatus?.includes(a.status)) continue;
    else {
      const v = c.surface === 'rpc' ? checkRawRpcAnswer(a) : checkAgentAnswer(a);
      // The raw requests ask for things that exist; 404 is the answer of a made-up path among them.
      if (
        v.violation &&
        !(a.status === 404 && a.body.length === 0) &&
        !(c.surface === 'agent' && a.status === 404)
      )
        problems.push(v.violation);
    }
  }
  const shape = problems.length
    ? 'violation'
    : result.answers.length
      ? `${result.answers.map((a) => a.status).join(',')}`.slice(0, 40)
      : result.closed
        ? 'closed, no answer'
        : 'no answer';
  record(
    index,
    c.surface,
    c.label,
    `${c.describe} (then ${c.afterWrites})`,
    {
      shape: `${c.label.split(':')[2]} ${shape.includes(',') ? `${result.answers.length} answers` : shape}`,
      violation: problems[0],
    },
    result.answers.map(describeAnswer).join(' | '),
  );
}

/** The raw RPC requests include `GET /status`, `/health`, `/network_info` and `/metrics`, whose 200 answers are
 * plain JSON views or Prometheus text rather than envelopes. */
function checkRawRpcAnswer(a: Answer): Verdict {
  const text = a.body.toString('utf8');
  if (a.status === 200 && a.contentType.startsWith('text/plain') && text.startsWith('# TYPE'))
    return { shape: '200 metrics' };
  if (a.status === 200 && a.contentType.startsWith('application/json') && !text.startsWith('{"jsonrpc"')) {
    try {
      JSON.parse(text);
      return { shape: '200 GET view' };
    } catch {
      return { shape: '200 bad-json', violation: 'a GET answer that is not JSON' };
    }
  }
  return checkRpcAnswer(a, {});
}

function describeAnswer(a: Answer): string {
  return `${a.status} ${a.contentType} ${a.body.toString('utf8').slice(0, 400)}`;
}

async function checkAlive(stack: Stack, rpcUrl: string, agentUrl: string): Promise<string | undefined> {
  if (!stack.alive()) return `shadebox up is not running:\n${stack.tail()}`;
  try {
    const s = await fetch(`${rpcUrl}/status`, { signal: AbortSignal.timeout(30_000) });
    await s.arrayBuffer();
    if (s.status !== 200) return `RPC /status answered ${s.status}`;
    const h = await fetch(`${agentUrl}/health`, { signal: AbortSignal.timeout(30_000) });
    await h.arrayBuffer();
    if (h.status !== 200) return `agent /health answered ${h.status}`;
  } catch (e) {
    return `a surface did not answer its health check: ${(e as Error).message}`;
  }
  return undefined;
}

function rpcCaller(url: string) {
  return async (method: string, params: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'fuzz', method, params }),
    });
    const json = (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
    if (json.error !== undefined) throw new Error(`${method}: ${JSON.stringify(json.error)}`);
    return json.result!;
  };
}

function sortKeys(m: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => a.localeCompare(b)));
}
