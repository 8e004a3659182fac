/**
 * Stopping mid-request, through real processes: SIGTERM while requests are in flight (long
 * `sandbox_fast_forward`s on the node, `/call request_signature` on the agent API of `shadebox up`), on both fast paths and
 * through node:http. Every client gets an answer (its result, or 503 with the surface's shutting-down error),
 * the process exits 0 and prints no stack trace, and the home opens again with its chain.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CliProcess, rpc, tempDir } from '../test-support/cli-process.js';
import type { ReadyEvent } from './print-ready.js';

interface Reply {
  status: number;
  body: string;
}

/**
 * A POST on its own connection: with a Content-Length it is answered by the fast path itself; `chunked`
 * (no Content-Length) hands the connection over to node:http. `sent` resolves once the whole request is
 * written.
 */
function post(url: string, body: unknown, chunked = false): { sent: Promise<void>; reply: Promise<Reply> } {
  const text = JSON.stringify(body);
  let sent!: Promise<void>;
  const reply = new Promise<Reply>((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!chunked) headers['content-length'] = String(Buffer.byteLength(text));
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      let answer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        answer += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: answer }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error('no answer within 60 s')));
    sent = new Promise<void>((done) => {
      if (chunked) req.write(text.slice(0, 10));
      req.end(chunked ? text.slice(10) : text, done);
    });
  });
  return { sent, reply };
}

const fastForward = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'sandbox_fast_forward',
  params: { delta_height: 100_000 },
});

/** A JSON-RPC answer to a request cut short by the stop, or its result. */
function assertRpcAnswer(reply: Reply, id: number): 'done' | 'refused' {
  const json = JSON.parse(reply.body) as { id: unknown; result?: unknown; error?: Record<string, unknown> };
  if (reply.status === 200) {
    assert.deepEqual(json, { jsonrpc: '2.0', result: {}, id }, reply.body);
    return 'done';
  }
  assert.equal(reply.status, 503, reply.body);
  assert.equal(json.error?.name, 'INTERNAL_ERROR', reply.body);
  assert.deepEqual(json.error?.cause, {
    info: { error_message: 'the node is shutting down' },
    name: 'INTERNAL_ERROR',
  });
  assert.ok(json.id === id || json.id === null, reply.body);
  return 'refused';
}

function assertNoTrace(stderr: string): void {
  assert.doesNotMatch(stderr, /StoreClosedError|"level":50|\n\s+at \S+ \(/, stderr);
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('stopping mid-request', () => {
  it('shadebox node: SIGTERM during long sandbox_fast_forwards answers every one of them, exits 0, and the home opens again', {
    timeout: 180_000,
  }, async () => {
    const home = join(await tempDir(), 'node');
    const cli = new CliProcess(['node', '--home', home, '--rpc-port', '0', '--json']);
    const ready = JSON.parse(await cli.firstLine()) as ReadyEvent;
    const start = (await rpc<{ sync_info: { latest_block_height: number } }>(ready.rpcUrl, 'status'))
      .sync_info.latest_block_height;

    // Fast-forwards run one after the other: several seconds of work queued on both paths.
    const ids = [...Array.from({ length: 8 }, (_, i) => i), 100, 101];
    const requests = ids.map((id) => post(ready.rpcUrl, fastForward(id), id >= 100));
    const replies = requests.map((r) => r.reply);
    await Promise.all(requests.map((r) => r.sent));
    // Stop once the first one has the chain moving, and the node has read every request (answers to later
    // requests on other connections come after the node's turns that read them).
    let answered = 0;
    await waitUntil(async () => {
      const status = await fetch(`${ready.rpcUrl}/status`).then((r) => r.json());
      answered++;
      const height = (status as { sync_info: { latest_block_height: number } }).sync_info.latest_block_height;
      return height > start && answered >= 3;
    }, 'the fast-forward to start');
    cli.child.kill('SIGTERM');

    const settled = await Promise.allSettled(replies);
    const outcomes = settled.map((s, i) => {
      assert.equal(
        s.status,
        'fulfilled',
        `request ${ids[i]} got no answer: ${String((s as PromiseRejectedResult).reason)}`,
      );
      return assertRpcAnswer((s as PromiseFulfilledResult<Reply>).value, ids[i]);
    });
    assert.ok(outcomes.includes('refused'), 'the queued fast-forwards were answered 503');
    const exit = await cli.exit();
    assert.equal(exit.code, 0, exit.stderr);
    assertNoTrace(exit.stderr);

    // The store closed cleanly: the node starts again on it, at or above the height reached.
    const again = new CliProcess(['node', '--home', home, '--rpc-port', '0', '--json']);
    const ready2 = JSON.parse(await again.firstLine()) as ReadyEvent;
    const status = await rpc<{ sync_info: { latest_block_height: number } }>(ready2.rpcUrl, 'status');
    assert.ok(status.sync_info.latest_block_height > start);
    const exit2 = await again.stop('SIGTERM');
    assert.equal(exit2.code, 0, exit2.stderr);
  });

  it('shadebox up: SIGTERM during /call request_signature (fast path and node:http) answers every call, exits 0', {
    timeout: 240_000,
  }, async () => {
    const cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--json']);
    const ready = JSON.parse(await cli.firstLine()) as ReadyEvent & { agentApiUrl: string };
    await cli.stdoutIncludes('"agent-ready"');
    const sign = (i: number) => ({
      methodName: 'request_signature',
      args: { path: `stop-${i}`, payload: Buffer.alloc(32, i + 1).toString('hex'), key_type: 'Ecdsa' },
    });
    const requests = [0, 1, 2].map((i) => post(`${ready.agentApiUrl}/call`, sign(i), i === 2));
    const calls = requests.map((r) => r.reply);
    await Promise.all(requests.map((r) => r.sent));
    // The agent API has read them (its health answers come in turns after those that read the calls).
    for (let i = 0; i < 3; i++) await fetch(`${ready.agentApiUrl}/health`).then((r) => r.text());
    cli.child.kill('SIGTERM');

    for (const [i, s] of (await Promise.allSettled(calls)).entries()) {
      assert.equal(
        s.status,
        'fulfilled',
        `call ${i} got no answer: ${String((s as PromiseRejectedResult).reason)}`,
      );
      const reply = (s as PromiseFulfilledResult<Reply>).value;
      const json = JSON.parse(reply.body) as { scheme?: string; error?: { code: string; message: string } };
      if (reply.status === 200) assert.equal(json.scheme, 'Secp256k1', reply.body);
      else {
        assert.equal(reply.status, 503, reply.body);
        assert.equal(json.error?.code, 'shutting_down', reply.body);
        assert.match(json.error?.message ?? '', /shutting down/);
      }
    }
    const exit = await cli.exit();
    assert.equal(exit.code, 0, exit.stderr);
    assertNoTrace(exit.stderr);
  });
});
