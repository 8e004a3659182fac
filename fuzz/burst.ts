/**
 * Bursts: one connection, many fuzzed requests pipelined in one write (or a few), every answer read back in
 * order and checked against its own request. This is how a load of hostile requests arrives at the fast path in
 * practice, and it is what lets a run reach a million requests on a busy machine: no round trip per request.
 * Only requests that answer at once go in a burst (no transaction waits, no block production), so one slow
 * answer does not hold up the ones pipelined behind it.
 */
import { type AgentRoute, agentCase } from './agent-cases.js';
import type { Known } from './known.js';
import type { Random } from './random.js';
import { type RawCase, runRawCase } from './raw-cases.js';
import { type HttpCase, rpcCase } from './rpc-cases.js';
import { type Answer, checkAgentAnswer, checkRpcAnswer, type Verdict } from './shapes.js';

/** Methods that wait (for a transaction, for blocks): not pipelined behind others. */
const WAITING =
  /"method":"(send_tx|broadcast_tx_commit|tx|EXPERIMENTAL_tx_status|sandbox_fast_forward|sandbox_produce_blocks)"/;

export interface Burst {
  cases: HttpCase[];
  raw: RawCase;
}

function requestBytes(c: HttpCase, contentType: string | undefined): Buffer {
  const body = c.body ?? Buffer.alloc(0);
  const head =
    `${c.method} ${c.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    (contentType ? `Content-Type: ${contentType}\r\n` : '') +
    `Content-Length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

export function rpcBurst(r: Random, k: Known, size: number): Burst {
  const cases: HttpCase[] = [];
  while (cases.length < size) {
    const c = rpcCase(r, k, undefined, true);
    if (!c.body || c.body.length > 64 * 1024 || WAITING.test(c.body.toString('latin1'))) continue;
    // On the fast path (a JSON content type); a body that is not UTF-8 still moves the connection to node:http.
    c.headers = { 'content-type': 'application/json' };
    c.rpc = { ...c.rpc, wrongContentType: false };
    cases.push(c);
  }
  return {
    cases,
    raw: burstRaw(
      'rpc',
      cases.map((c) => requestBytes(c, 'application/json')),
      r,
    ),
  };
}

export function agentBurst(
  r: Random,
  k: Known,
  routes: readonly AgentRoute[],
  base: string,
  agentAccountId: string,
  size: number,
): Burst {
  const posts = routes.filter((x) => x.method === 'POST' && !x.path.endsWith('/call'));
  const cases: HttpCase[] = [];
  while (cases.length < size) {
    const c = agentCase(r, k, posts, base, agentAccountId);
    if (c.method !== 'POST' || (c.body?.length ?? 0) > 64 * 1024) continue;
    cases.push(c);
  }
  return {
    cases,
    raw: burstRaw(
      'agent',
      cases.map((c) => requestBytes(c, c.headers['content-type'])),
      r,
    ),
  };
}

function burstRaw(surface: 'rpc' | 'agent', requests: Buffer[], r: Random): RawCase {
  const all = Buffer.concat(requests);
  const writes: Buffer[] = [];
  // One write, or cut anywhere into a few.
  let at = 0;
  for (let n = r.range(1, 4); n > 1; n--) {
    const cut = at + r.int(all.length - at);
    writes.push(all.subarray(at, cut));
    at = cut;
  }
  writes.push(all.subarray(at));
  return {
    surface,
    label: `burst:${surface}`,
    writes: writes.filter((w) => w.length > 0),
    pauseMs: 0,
    afterWrites: 'wait',
    answers: requests.length,
    describe: `${requests.length} requests pipelined`,
  };
}

export interface BurstResult {
  /** Per request: its verdict, and the answer's text for a report. */
  verdicts: Array<{ verdict: Verdict; answer: string }>;
}

export async function runBurst(port: number, burst: Burst, timeoutMs: number): Promise<BurstResult> {
  const result = await runRawCase(port, burst.raw, timeoutMs);
  const verdicts = burst.cases.map((c, j) => {
    const a: Answer | undefined = result.answers[j];
    if (!a) {
      return {
        verdict: {
          shape: 'no answer',
          violation: `a request in a burst had no answer (${result.error ?? (result.closed ? 'closed' : 'timed out')}; ${result.answers.length} of ${burst.cases.length} answered)`,
        },
        answer: '',
      };
    }
    const verdict = c.surface === 'rpc' ? checkRpcAnswer(a, c.rpc) : checkAgentAnswer(a);
    if (!verdict.violation && a.status === 200 && c.learn) {
      try {
        c.learn((JSON.parse(a.body.toString('utf8')) as { result?: unknown }).result);
      } catch {
        // checked above
      }
    }
    return { verdict, answer: `${a.status} ${a.contentType} ${a.body.toString('utf8').slice(0, 400)}` };
  });
  return { verdicts };
}
