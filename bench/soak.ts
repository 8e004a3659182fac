/**
 * `npm run soak -- --minutes N [--rate R] [--seed S]`: starts `shadebox up` on a fresh disk home and drives
 * transfers, contract calls, views and signature requests through the agent API together at a steady rate;
 * every interval it prints the stack's RSS and the latency percentiles per kind; at the end it checks that
 * every accepted transaction is FINAL and that the supply adds up, prints a summary and exits non-zero when
 * a check failed. See bench/README.md ("Soak").
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { readAnonymousParts, readMemory } from './proc.js';
import { installCleanup } from './processes.js';
import { PooledRpcClient } from './rpc.js';
import { staleBuilds } from './shadebox-node.js';
import { checkFinality, checkSupply, waitForQuietChain } from './soak/end-checks.js';
import { formatInterval, IntervalRecorder, type IntervalSample } from './soak/interval-stats.js';
import { parseSoakOptions } from './soak/options.js';
import { SeededRandom } from './soak/random.js';
import { startSoakStack } from './soak/stack.js';
import { formatSummary, summarizeSoak } from './soak/summary.js';
import { KIND_PLAN, prepareWorkload } from './soak/workload.js';

const log = (line: string) => console.log(line);
/** How often the stack's VmRSS is read for the summary's medians (the samples' other figures come every interval). */
const MEMORY_READING_MS = 1000;

/** Bytes of the node's data.mdb, NaN when it cannot be read. */
function storeSize(nodeHome: string): number {
  try {
    return statSync(join(nodeHome, 'data', 'data.mdb')).size;
  } catch {
    return Number.NaN;
  }
}

async function main(): Promise<number> {
  let options: ReturnType<typeof parseSoakOptions>;
  try {
    options = parseSoakOptions(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  installCleanup();
  const stale = staleBuilds();
  if (stale.length > 0) log(`soak: warning: stale builds, run npm run build first: ${stale.join(', ')}`);

  const loadAtStart = loadavg()[0];
  log(`soak: 1-minute load average ${loadAtStart.toFixed(2)} (other load on the machine slows every figure)`);
  const stack = await startSoakStack();
  const pid = stack.child.pid;
  let stackDiedDuringRun = false;
  void stack.child.exited.then(() => {
    stackDiedDuringRun = true;
  });
  log(`soak: shadebox up (pid ${pid}) on ${stack.homeDir}; agent ${stack.agentAccountId}`);
  const client = new PooledRpcClient(stack.rpcUrl, 64);
  const archival = new PooledRpcClient(stack.archivalRpcUrl, 16);
  const recorder = new IntervalRecorder();
  const workload = await prepareWorkload(
    stack,
    client,
    recorder,
    new SeededRandom(options.seed),
    options.seed,
  );
  const plan = Object.entries(KIND_PLAN)
    .map(([k, p]) => `${k} ${(options.rate * p.share).toFixed(1)}/s (≤ ${p.inFlight} in flight)`)
    .join(', ');
  log(
    `soak: ${options.durationMs / 1000} s at ${options.rate} operations/s: ${plan}; seed ${options.seed}; samples every ${options.intervalMs / 1000} s, warm-up ${options.warmupMs / 1000} s`,
  );

  const samples: IntervalSample[] = [];
  const started = performance.now();
  const sample = () => {
    const memory = {
      ...(readMemory(pid) ?? { rssBytes: Number.NaN, rssAnonBytes: Number.NaN, rssFileBytes: Number.NaN }),
      anon: readAnonymousParts(pid) ?? {
        v8PagesBytes: Number.NaN,
        mallocHeapBytes: Number.NaN,
        otherBytes: Number.NaN,
      },
      storeBytes: storeSize(stack.nodeHome),
    };
    const s = recorder.flush((performance.now() - started) / 1000, memory);
    samples.push(s);
    log(formatInterval(s));
  };
  const timer = setInterval(sample, options.intervalMs);
  const reader = setInterval(() => {
    const memory = readMemory(pid);
    if (memory) recorder.noteMemoryReading(memory);
  }, MEMORY_READING_MS);
  const { abandoned } = await workload.run(options.durationMs, options.rate);
  clearInterval(timer);
  clearInterval(reader);
  // The last (partial) interval holds what finished while the load drained.
  sample();

  log(`soak: load done; checking ${workload.accepted.length} accepted transactions at FINAL`);
  const finality = await checkFinality(archival, workload.accepted);
  if (!(await waitForQuietChain(client)))
    log('soak: warning: the head still moves two minutes after the load');
  log('soak: checking the supply over every block (archival endpoint)');
  const supply = await checkSupply(archival, stack.nodeHome, [...workload.accounts, stack.agentAccountId]);
  const diedBeforeStop = stackDiedDuringRun;
  await stack.child.stop(30_000);
  const exit = await stack.child.exited;
  await Promise.all([client.close(), archival.close()]);

  const summary = summarizeSoak({
    samples,
    warmupMs: options.warmupMs,
    recorder,
    finality,
    supply,
    abandoned,
    verifiedSignatures: workload.verifiedSignatures,
    stackExit: exit,
    stackDiedDuringRun: diedBeforeStop,
  });
  log(formatSummary(summary));
  if (!finality.ok) log(`soak: not FINAL: ${JSON.stringify(finality.notFinal)}`);
  if (options.out) {
    const result = {
      options,
      summary,
      samples,
      finality,
      supply,
      loadAverage: { start: loadAtStart, end: loadavg()[0] },
    };
    writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
    log(`soak: result written to ${options.out}`);
  }
  if (summary.ok) rmSync(stack.homeDir, { recursive: true, force: true });
  else log(`soak: the home is kept for inspection: ${stack.homeDir}`);
  return summary.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error('soak failed:', error);
    process.exit(1);
  },
);
