/**
 * End to end: `kill -9` of `shadebox up` while signature requests are in flight, then a restart on the same
 * home (the dead process's home lock is stale and taken over):
 *
 * - every request sent before the kill was answered or failed visibly: a JSON answer (200 with a signature, or
 *   an error object) or a connection error; none hangs;
 * - the restarted stack serves signature requests again at once, sequentially and concurrently: every key it
 *   signs with starts from the chain's nonce;
 * - nothing is half-applied: once the requests left pending by the killed stack are answered by the new
 *   responder and the chain is quiescent, each block's total_supply is its parent's minus the balance its
 *   chunks burnt, and Σ (amount + locked) over every account of the head state (read from the store after a
 *   clean stop) equals the head's total_supply.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dumpHomeState, loadHome } from '@shadebox/node';
import { CliProcess, tempDir } from '../packages/cli/test-support/cli-process.js';
import { type Json, rpcRaw } from './support/raw-rpc.js';

interface Ready {
  rpcUrl: string;
  agentApiUrl: string;
  home: string;
  mpcContractId: string;
}

type Outcome = { kind: 'answer'; status: number; json: Json } | { kind: 'connection-error'; error: string };

function startUp(home: string): CliProcess {
  return new CliProcess(['up', '--home', home, '--rpc-port', '0', '--agent-port', '0', '--json']);
}

async function ready(cli: CliProcess): Promise<Ready> {
  const line = JSON.parse(await cli.firstLine()) as Ready;
  await cli.stdoutIncludes('"agent-ready"');
  return line;
}

const signArgs = (tag: string) => ({
  methodName: 'request_signature',
  args: {
    path: tag,
    payload: Buffer.from(tag.padEnd(32, '.')).subarray(0, 32).toString('hex'),
    key_type: 'Ecdsa',
  },
});

/** One /call; resolves with the answer or the connection error, never hangs (bounded). */
async function call(api: string, tag: string): Promise<Outcome> {
  try {
    const r = await fetch(`${api}/call`, {
      method: 'POST',
      body: JSON.stringify(signArgs(tag)),
      signal: AbortSignal.timeout(120_000),
    });
    return { kind: 'answer', status: r.status, json: JSON.parse(await r.text()) as Json };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') throw new Error(`request ${tag} hung`);
    return { kind: 'connection-error', error: String((error as Error).cause ?? error) };
  }
}

function assertSigned(outcome: Outcome, what: string): void {
  assert.equal(outcome.kind, 'answer', `${what}: ${JSON.stringify(outcome)}`);
  const answer = outcome as Extract<Outcome, { kind: 'answer' }>;
  assert.equal(answer.status, 200, `${what}: ${JSON.stringify(answer.json)}`);
  assert.equal(answer.json.scheme, 'Secp256k1');
}

async function rpc(url: string, method: string, params: unknown): Promise<Json> {
  const { result, error } = await rpcRaw(url, method, params);
  if (error) throw new Error(`${method}: ${JSON.stringify(error)}`);
  return result;
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('kill -9 of shadebox up with signature requests in flight', () => {
  it('answers or fails every request visibly, resumes with the chain nonces, and loses no token', {
    timeout: 600_000,
  }, async () => {
    const stack = join(await tempDir('shadebox-kill9-'), 'stack');
    const first = startUp(stack);
    const before = await ready(first);

    // Requests in flight: as soon as one is answered, one more is sent and the stack is killed under the
    // others. (Two at a time: what the agent's default funding pays for at once, see issue 15.)
    const tags = ['before-0', 'before-1', 'before-2'];
    const inFlight = tags.slice(0, 2).map((tag) => call(before.agentApiUrl, tag));
    await Promise.race(inFlight);
    inFlight.push(call(before.agentApiUrl, tags[2]));
    await new Promise((resolve) => setImmediate(resolve));
    first.child.kill('SIGKILL');
    const killed = await first.exit();
    assert.equal(killed.signal, 'SIGKILL');

    const outcomes = await Promise.all(inFlight);
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.kind === 'connection-error') continue;
      // An answer is either a signature or an error object that says what happened.
      if (outcome.status === 200) assertSigned(outcome, tags[i]);
      else assert.equal(typeof (outcome.json.error as Json)?.code, 'string', JSON.stringify(outcome.json));
    }
    assert.ok(
      outcomes.some((o) => o.kind === 'answer' && o.status === 200),
      'the request answered before the kill was signed',
    );

    // The restart takes over the dead process's home and chain.
    const second = startUp(stack);
    const after = await ready(second);
    assert.equal(after.home, before.home);
    for (let i = 0; i < 2; i++) assertSigned(await call(after.agentApiUrl, `after-${i}`), `after-${i}`);
    const concurrent = await Promise.all([0, 1].map((i) => call(after.agentApiUrl, `after-c${i}`)));
    for (const [i, outcome] of concurrent.entries()) assertSigned(outcome, `after-c${i}`);

    // Quiescent: nothing left pending in the signer contract (the new responder answered what the killed stack
    // left), no receipt in flight, and the head no longer moves.
    let lastHead = -1;
    await waitUntil(async () => {
      const pending = await rpc(after.rpcUrl, 'query', {
        request_type: 'call_function',
        finality: 'optimistic',
        account_id: after.mpcContractId,
        method_name: 'pending_requests',
        args_base64: Buffer.from(JSON.stringify({ from_index: 0, limit: 100 })).toString('base64'),
      });
      const requests = JSON.parse(Buffer.from(pending.result as number[]).toString('utf8')) as unknown[];
      const metrics = await fetch(`${after.rpcUrl}/metrics`).then((r) => r.text());
      const receipts = Number(/^near_receipts_in_flight (\d+)$/m.exec(metrics)?.[1]);
      const head = (await rpc(after.rpcUrl, 'block', { finality: 'optimistic' })).header.height as number;
      const final = (await rpc(after.rpcUrl, 'block', { finality: 'final' })).header.height as number;
      const still = head === lastHead;
      lastHead = head;
      return requests.length === 0 && receipts === 0 && still && final >= head - 2;
    }, 'the chain to be quiescent');

    // Each block's supply is its parent's minus what its chunks burnt, back to genesis.
    let block = await rpc(after.rpcUrl, 'block', { finality: 'optimistic' });
    const head = { height: block.header.height as number, totalSupply: BigInt(block.header.total_supply) };
    while (block.header.prev_hash !== '11111111111111111111111111111111') {
      const parent = await rpc(after.rpcUrl, 'block', { block_id: block.header.prev_hash });
      const burnt = (block.chunks as Json[]).reduce((sum, c) => sum + BigInt(c.balance_burnt), 0n);
      assert.equal(
        BigInt(block.header.total_supply),
        BigInt(parent.header.total_supply) - burnt,
        `total_supply at height ${block.header.height}`,
      );
      block = parent;
    }

    const stopped = await second.stop('SIGTERM');
    assert.equal(stopped.code, 0, stopped.stderr);

    // Every account of the head state, read from the store: Σ (amount + locked) == the head's total_supply.
    const dump = await dumpHomeState({ ...(await loadHome(after.home)), dir: after.home });
    assert.equal(dump.height, head.height, 'no block was made while the stack stopped');
    let sum = 0n;
    for (const record of dump.genesis.records as Json[]) {
      if (record.Account)
        sum += BigInt(record.Account.account.amount) + BigInt(record.Account.account.locked);
    }
    assert.equal(sum, head.totalSupply);
  });
});
