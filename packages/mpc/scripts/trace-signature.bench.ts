/**
 * Where the time of one chain-signature request goes. Starts a node with chain signatures in this process, as
 * `shadebox node --memory --mpc` does (`--signer-wasm FILE` for one of NEAR's signer builds), registers an
 * agent with the built-in agent contract, then sends `request_signature` one at a time with `send_tx
 * wait_until: EXECUTED` and records, in ms from posting send_tx: every block made (and the receipts it
 * executed), every JSON-RPC call of the responder, and the answer. Prints the first request's timeline (all of
 * them with -v), then the median of each step over the requests and the blocks a request spans.
 *
 *   node --conditions=source --import tsx packages/mpc/scripts/trace-signature.bench.ts \
 *     [--signer-wasm ../shared/corpus/mpc/signer-3_13_0.wasm] [-n 20] [-v]
 *
 * A diagnostic, not a benchmark (`npm run bench -- --only chainsig` measures): the client runs in the node's
 * process here, and the tracing costs a little.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { parseArgs } from 'node:util';
import { ChainUnavailableError, KeyPool, RpcClient, sendTransaction } from '@shadebox/near-client';
import { type Logger, silentLogger, startNode } from '@shadebox/node';
import { fullAccessKey, hexEncode, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import { startChainSignaturesOn } from '../../cli/src/chain-signatures/service.js';

const { values } = parseArgs({
  options: {
    'signer-wasm': { type: 'string' },
    n: { type: 'string', short: 'n', default: '20' },
    verbose: { type: 'boolean', short: 'v', default: false },
    /** The responder over HTTP, as against a node in another process. */
    http: { type: 'boolean', default: false },
    /** Writes a CPU profile of the requests (not the setup) to this file. */
    profile: { type: 'string' },
    /** Agents sending at once, each one request at a time (-n each): prints the rate instead of timelines. */
    agents: { type: 'string', default: '1' },
  },
});
const count = Number(values.n);
const agentCount = Number(values.agents);
const out = (line: string) => process.stdout.write(`${line}\n`);

interface Event {
  t: number;
  what: string;
}
let events: Event[] = [];
const mark = (what: string, t = performance.now()) => events.push({ t, what });

/** A fetch that records each JSON-RPC call it carries (method, and the view or wait level). */
function traced(inner: typeof fetch): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    let label = 'rpc';
    try {
      const { method, params } = JSON.parse(String(init?.body));
      label = method;
      if (params?.method_name) label += ` ${params.method_name}`;
      else if (params?.request_type) label += ` ${params.request_type}`;
      if (params?.wait_until) label += ` ${params.wait_until}`;
    } catch {}
    const t0 = performance.now();
    const answer = await inner(url, init);
    const text = await answer.text();
    mark(`  rpc> ${label}`, t0);
    mark(`  rpc< ${label} (${(performance.now() - t0).toFixed(1)} ms)`);
    return new Response(text, { status: answer.status, headers: answer.headers });
  }) as typeof fetch;
}

const log = {
  level: 'debug',
  debug: (obj: object, msg?: string) =>
    mark(`  responder: ${msg ?? ''} ${JSON.stringify(obj).slice(0, 100)}`),
  info: () => {},
  warn: (obj: object, msg?: string) => {
    mark(`  responder WARN: ${msg} ${JSON.stringify(obj).slice(0, 200)}`);
    process.stderr.write(`responder WARN: ${msg} ${JSON.stringify(obj).slice(0, 300)}\n`);
  },
  error: (obj: object, msg?: string) =>
    mark(`  responder ERROR: ${msg} ${JSON.stringify(obj).slice(0, 200)}`),
  child: () => log,
} as unknown as Logger;

const node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
// The responder's calls: through the node's in-process JSON-RPC, or over HTTP where there is none.
const realFetch = globalThis.fetch;
globalThis.fetch = traced(realFetch);
if (values.http) (node as { fetch?: typeof fetch }).fetch = undefined;
else if (node.fetch) node.fetch = traced(node.fetch);
const signerWasm = values['signer-wasm'] ? new Uint8Array(readFileSync(values['signer-wasm'])) : undefined;
const cs = await startChainSignaturesOn(node, { log, ...(signerWasm ? { signerWasm } : {}) });

// biome-ignore lint/suspicious/noExplicitAny: a diagnostic reads the runtime's outcomes loosely.
node.chain.on('executed', (block: { height: number }, results: Array<{ outcomes: any[] }>) => {
  const done: string[] = [];
  for (const r of results) {
    for (const o of r.outcomes) {
      if (!o.receipt) {
        done.push(`tx->${o.executorId}`);
        continue;
      }
      const receipt = o.receipt.receipt;
      const call = Array.isArray(receipt?.actions)
        ? // biome-ignore lint/suspicious/noExplicitAny: as above.
          receipt.actions.find((a: any) => a?.type === 'FunctionCall')
        : undefined;
      const name = call?.methodName ?? (o.receipt.predecessorId === 'system' ? 'refund' : 'other');
      done.push(`${name}@${o.executorId}`);
    }
  }
  mark(`block ${block.height}${done.length ? `: ${done.join(', ')}` : ''}`);
});

const client = new RpcClient(node.rpcUrl, { fetch: realFetch, timeoutMs: 120_000 });
const [root] = node.accounts;
const rootPool = new KeyPool(client, root.accountId, [KeyPair.fromString(root.secretKey)]);
const call = (methodName: string, args: unknown) => ({
  type: 'FunctionCall' as const,
  methodName,
  args: new TextEncoder().encode(JSON.stringify(args)),
  gas: 100n * TGAS,
  deposit: 0n,
});
const codehash = 'c'.repeat(64);
await rootPool.send(cs.agentContractId, [call('approve_codehash', { codehash })], { waitUntil: 'FINAL' });
const agents: KeyPool[] = [];
for (let i = 0; i < agentCount; i++) {
  const key = KeyPair.fromRandom('ed25519');
  const id = `agent${i}.${root.accountId}`;
  await rootPool.send(
    id,
    [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 100n * ONE_NEAR },
      { type: 'AddKey', publicKey: key.publicKey, accessKey: fullAccessKey() },
    ],
    { waitUntil: 'FINAL' },
  );
  const pool = new KeyPool(client, id, [key]);
  await pool.send(cs.agentContractId, [call('register_agent', { codehash })], { waitUntil: 'FINAL' });
  agents.push(pool);
}
const agent = agents[0];

/** One request from `pool`: ms from posting send_tx to its answer; throws unless it succeeded. */
async function requestFrom(pool: KeyPool): Promise<number> {
  const payload = crypto.getRandomValues(new Uint8Array(32));
  const tx = await pool.sign(cs.agentContractId, [
    call('request_signature', { path: 'trace', payload: hexEncode(payload), key_type: 'Ecdsa' }),
  ]);
  const t0 = performance.now();
  let outcome: Awaited<ReturnType<typeof sendTransaction>>;
  for (let attempt = 0; ; attempt++) {
    try {
      outcome =
        attempt === 0
          ? await sendTransaction(client, tx.base64, 'EXECUTED')
          : await client.call('tx', { signed_tx_base64: tx.base64, wait_until: 'EXECUTED' });
      break;
    } catch (err) {
      // The node's own wait ran out (a loaded machine): ask again.
      if (!(err instanceof ChainUnavailableError) || attempt >= 10) throw err;
    }
  }
  if (outcome.status?.SuccessValue === undefined) throw new Error(JSON.stringify(outcome.status));
  pool.useBlockHash(outcome.transaction_outcome.block_hash);
  return performance.now() - t0;
}

if (agentCount > 1) {
  // Every agent at once, each one request at a time: the rate, and what the responder and the chain did.
  await Promise.all(agents.map(async (pool) => requestFrom(pool)));
  events = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const latencies: number[] = [];
  await Promise.all(
    agents.map(async (pool) => {
      for (let i = 0; i < count; i++) latencies.push(await requestFrom(pool));
    }),
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  const n = latencies.length;
  out(`${agentCount} agents x ${count} requests: ${((n / wall) * 1000).toFixed(1)} req/s`);
  out(
    `  latency p50 ${latencies[Math.floor(n / 2)].toFixed(0)} ms, p99 ${latencies[Math.floor(n * 0.99)].toFixed(0)} ms`,
  );
  out(
    `  blocks ${events.filter((e) => e.what.startsWith('block ')).length}, responder calls ${events.filter((e) => e.what.startsWith('  rpc>')).length} (views ${events.filter((e) => /rpc> query get_pending/.test(e.what)).length})`,
  );
  // Requests parked in a block whose answers are not all in the next block (the responder fell behind).
  const blockEvents = events.filter((e) => e.what.startsWith('block '));
  const countIn = (what: string, re: RegExp) => (what.match(re) ?? []).length;
  let late = 0;
  let carried = 0;
  blockEvents.forEach((b, i) => {
    const parked = countIn(b.what, /\bsign@/g) + carried;
    const answered = i + 1 < blockEvents.length ? countIn(blockEvents[i + 1].what, /tx->mpc-responder/g) : 0;
    carried = Math.max(0, parked - answered);
    late += carried;
  });
  out(`  requests not answered in the block after their yield (summed over blocks): ${late}`);
  const blockTimes = events.filter((e) => e.what.startsWith('block ')).map((e) => e.t);
  const gaps = blockTimes.slice(1).map((t, i) => t - blockTimes[i]);
  out(
    `  longest time between two blocks ${Math.max(...gaps).toFixed(0)} ms; gaps of 500 ms or more: ${gaps.filter((g) => g >= 500).length}`,
  );
  out(`  CPU of this process per request: ${((cpu.user + cpu.system) / 1000 / n).toFixed(1)} ms`);
  await cs.stop();
  await node.stop();
  process.exit(0);
}

/** The steps of one request, each the first event matching it (after the one before). */
const STEPS: Array<[string, RegExp]> = [
  ['tx included', /^block \d+:.*tx->agent0/],
  ['agent contract receipt', /^block \d+:.*request_signature@/],
  ['sign receipt, yield parked', /^block \d+:.*\bsign@/],
  ['responder: pending confirmed', /rpc< query get_pending_request/],
  ['responder: respond sent', /rpc> send_tx/],
  ['respond tx included', /^block \d+:.*tx->mpc-responder/],
  ['respond receipt (resume)', /^block \d+:.*\brespond@/],
  ['yield callback', /^block \d+:.*@signer/],
  ['answer read', /^answer read/],
];
const session = values.profile ? new Session() : undefined;
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    session!.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
  );
if (session) {
  session.connect();
  await post('Profiler.enable');
  await post('Profiler.start');
}
const stepTimes = new Map<string, number[]>(STEPS.map(([name]) => [name, []]));
const blockCounts: number[] = [];
const totals: number[] = [];
const cpuMs: number[] = [];
const rpcCalls: number[] = [];
const WARMUP = 2;
for (let i = 0; i < count + WARMUP; i++) {
  const payload = crypto.getRandomValues(new Uint8Array(32));
  const tx = await agent.sign(cs.agentContractId, [
    call('request_signature', { path: 'trace', payload: hexEncode(payload), key_type: 'Ecdsa' }),
  ]);
  // Sent as soon as the previous one answered, as in the benchmark's one-at-a-time row.
  events = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  mark('send_tx EXECUTED posted');
  const outcome = await sendTransaction(client, tx.base64, 'EXECUTED');
  mark(`answer read (${outcome.final_execution_status})`);
  agent.useBlockHash(outcome.transaction_outcome.block_hash);
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (i < WARMUP) continue;
  cpuMs.push((cpu.user + cpu.system) / 1000);
  rpcCalls.push(events.filter((e) => e.what.startsWith('  rpc>')).length);
  const timeline = events.sort((a, b) => a.t - b.t);
  totals.push(total);
  if (values.verbose || i === WARMUP) {
    const ok = outcome.status?.SuccessValue !== undefined ? 'ok' : JSON.stringify(outcome.status);
    out(`\nrequest ${i - WARMUP + 1}: ${total.toFixed(1)} ms, ${ok}`);
    for (const e of timeline) out(`${(e.t - t0).toFixed(1).padStart(8)}  ${e.what}`);
  }
  let from = 0;
  let firstBlock = -1;
  let lastBlock = -1;
  for (const [name, pattern] of STEPS) {
    const at = timeline.findIndex((e, j) => j >= from && pattern.test(e.what));
    if (at < 0) continue;
    stepTimes.get(name)!.push(timeline[at].t - t0);
    from = at + 1;
    const height = /^block (\d+)/.exec(timeline[at].what)?.[1];
    if (height !== undefined) {
      if (firstBlock < 0) firstBlock = Number(height);
      lastBlock = Number(height);
    }
  }
  if (firstBlock >= 0) blockCounts.push(lastBlock - firstBlock + 1);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
out(
  `\n${totals.length} requests (${values['signer-wasm'] ?? 'built-in signer'}), median ms from posting send_tx:`,
);
let previous = 0;
for (const [name] of STEPS) {
  const times = stepTimes.get(name)!;
  if (times.length === 0) continue;
  const m = median(times);
  out(
    `${m.toFixed(1).padStart(8)}  (+${(m - previous).toFixed(1).padStart(5)})  ${name}  [n=${times.length}]`,
  );
  previous = m;
}
out(`the responder's JSON-RPC calls per request: median ${median(rpcCalls)}`);
out(`blocks from the tx's block to the callback's: median ${median(blockCounts)}`);
out(`total: median ${median(totals).toFixed(1)} ms, min ${Math.min(...totals).toFixed(1)} ms`);
// CPU time depends far less on what else runs on the machine than the wall clock does.
out(`CPU of this process per request (client included): median ${median(cpuMs).toFixed(1)} ms`);
if (session) {
  const { profile } = (await post('Profiler.stop')) as { profile: unknown };
  writeFileSync(values.profile!, JSON.stringify(profile));
  out(`CPU profile of the requests: ${values.profile}`);
}
await cs.stop();
await node.stop();
