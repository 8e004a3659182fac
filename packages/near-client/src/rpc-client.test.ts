import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { isShadeboxError } from '@shadebox/errors';
import { closedUrl, type JsonRpcStub, startJsonRpcStub } from '../test-support/json-rpc-stub.js';
import { ChainUnavailableError } from './chain-unavailable-error.js';
import { RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';

const stubs: JsonRpcStub[] = [];
after(() => Promise.all(stubs.map((s) => s.close())));

async function stub(answer: Parameters<typeof startJsonRpcStub>[0]): Promise<JsonRpcStub> {
  const s = await startJsonRpcStub(answer);
  stubs.push(s);
  return s;
}

const UNKNOWN_ACCOUNT = {
  name: 'HANDLER_ERROR',
  cause: { name: 'UNKNOWN_ACCOUNT', info: { requested_account_id: 'nobody.near' } },
  code: -32000,
  message: 'Server error',
  data: 'account nobody.near does not exist while viewing',
};

describe('RpcClient', () => {
  it('sends JSON-RPC 2.0 and resolves with the result', async () => {
    const s = await stub(() => ({ result: { ok: 1 } }));
    const rpc = new RpcClient(s.url, { idPrefix: 'unit' });
    assert.deepEqual(await rpc.call('status', []), { ok: 1 });
    assert.deepEqual(await rpc.call('block', { finality: 'final' }), { ok: 1 });
    assert.deepEqual(
      s.requests.map((r) => [r.method, r.params, r.id]),
      [
        ['status', [], 'unit-1'],
        ['block', { finality: 'final' }, 'unit-2'],
      ],
    );
  });

  it('throws nearcore errors as RpcError with the error object and its parts', async () => {
    const s = await stub(() => ({ error: UNKNOWN_ACCOUNT }));
    const error = await new RpcClient([s.url]).call('query', {}).catch((e) => e);
    assert.ok(error instanceof RpcError && isShadeboxError(error));
    assert.equal(error.name, 'RpcError');
    assert.equal(error.method, 'query');
    assert.deepEqual(error.error, UNKNOWN_ACCOUNT);
    assert.equal(error.errorName, 'HANDLER_ERROR');
    assert.equal(error.causeName, 'UNKNOWN_ACCOUNT');
    assert.deepEqual(error.info, { requested_account_id: 'nobody.near' });
    assert.equal(error.code, -32000);
    assert.equal(error.data, 'account nobody.near does not exist while viewing');
    assert.equal(
      error.message,
      'query: UNKNOWN_ACCOUNT: Server error: account nobody.near does not exist while viewing',
    );
    assert.deepEqual(error.details, {
      method: 'query',
      errorName: 'HANDLER_ERROR',
      causeName: 'UNKNOWN_ACCOUNT',
      code: -32000,
    });
  });

  it("turns nearcore's TIMEOUT_ERROR into ChainUnavailableError (timeout)", async () => {
    const s = await stub(() => ({
      error: {
        name: 'HANDLER_ERROR',
        cause: { name: 'TIMEOUT_ERROR' },
        code: -32000,
        message: 'Server error',
      },
    }));
    const error = await new RpcClient([s.url]).call('send_tx', {}).catch((e) => e);
    assert.ok(error instanceof ChainUnavailableError);
    assert.equal(error.timeout, true);
    assert.equal(error.message, 'send_tx: timed out');
    assert.ok(error.cause instanceof RpcError);
  });

  it('fails over to the next endpoint and sticks to the last one that answered', async () => {
    const down = await closedUrl();
    const html = await stub(() => ({
      status: 502,
      body: '<html>bad gateway</html>',
      contentType: 'text/html',
    }));
    const good = await stub(() => ({ result: 'fine' }));
    const rpc = new RpcClient([down, html.url, good.url]);
    assert.equal(await rpc.call('status', []), 'fine');
    assert.equal(rpc.currentUrl, good.url);
    assert.equal(html.requests.length, 1);
    assert.equal(await rpc.call('status', []), 'fine');
    assert.equal(html.requests.length, 1, 'the endpoint that answered is asked first');
    assert.equal(good.requests.length, 2);
  });

  it('does not fail over on a JSON-RPC error (the endpoint answered)', async () => {
    const first = await stub(() => ({ error: UNKNOWN_ACCOUNT }));
    const second = await stub(() => ({ result: 'other' }));
    const rpc = new RpcClient([first.url, second.url]);
    await assert.rejects(rpc.call('query', {}), RpcError);
    assert.equal(second.requests.length, 0);
  });

  it('says unreachable when no endpoint can be reached', async () => {
    const rpc = new RpcClient([await closedUrl(), await closedUrl()]);
    const error = await rpc.call('block', {}).catch((e) => e);
    assert.ok(error instanceof ChainUnavailableError);
    assert.equal(error.timeout, false);
    assert.match(
      error.message,
      /^block: no RPC endpoint answered \(127\.0\.0\.1:\d+: unreachable \(3 tries\); 127\.0\.0\.1:\d+: unreachable \(3 tries\)\)$/,
    );
    assert.equal(error.details.failures.length, 2);
    assert.equal(error.details.method, 'block');
  });

  it('says timed out when every endpoint timed out, with the per-call timeout', async () => {
    const slow = await stub(() => ({ delayMs: 2_000, answer: { result: 'late' } }));
    const rpc = new RpcClient([slow.url], 60_000);
    const error = await rpc.call('block', {}, 50).catch((e) => e);
    assert.ok(error instanceof ChainUnavailableError);
    assert.equal(error.timeout, true);
    assert.match(error.message, /timed out\)$/);
  });

  it('is not a timeout when only some endpoints timed out', async () => {
    const slow = await stub(() => ({ delayMs: 2_000, answer: { result: 'late' } }));
    const rpc = new RpcClient([slow.url, await closedUrl()], { timeoutMs: 50 });
    const error = await rpc.call('block', {}).catch((e) => e);
    assert.ok(error instanceof ChainUnavailableError);
    assert.equal(error.timeout, false);
  });

  it('rejects with the reason when the caller aborts', async () => {
    const slow = await stub(() => ({ delayMs: 2_000, answer: { result: 'late' } }));
    const controller = new AbortController();
    const call = new RpcClient([slow.url, await closedUrl()]).call(
      'block',
      {},
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error('stopping')), 20);
    await assert.rejects(call, /stopping/);
  });

  it('asks again after a 503, a 502 or a cut answer, and answers with the result', async () => {
    let n = 0;
    const flaky = await stub(() => {
      n++;
      if (n === 1) return { status: 503, body: 'busy' };
      if (n === 2)
        return {
          status: 502,
          body: '{"jsonrpc":"2.0","error":{"code":-32000}}',
          contentType: 'application/json',
        };
      if (n === 3) return { status: 200, body: '{"jsonrpc":"2.0","id":', contentType: 'application/json' };
      return { result: 'fine' };
    });
    const rpc = new RpcClient(flaky.url, { retry: { initialDelayMs: 1, maxDelayMs: 5 } });
    assert.equal(await rpc.call('status', []), 'fine');
    assert.equal(flaky.requests.length, 4);
  });

  it("honours a 429's Retry-After: the endpoint rests and another one is asked meanwhile", async () => {
    const limited = await stub(() => ({ status: 429, body: 'slow down', headers: { 'retry-after': '60' } }));
    const other = await stub(() => ({ result: 'other' }));
    const rpc = new RpcClient([limited.url, other.url]);
    assert.equal(await rpc.call('status', []), 'other');
    assert.equal(await rpc.call('status', []), 'other');
    assert.equal(
      limited.requests.length,
      1,
      'the limited endpoint is not asked again before its Retry-After',
    );
  });

  it("fails at once, saying when to come back, when a Retry-After is beyond the call's time", async () => {
    const date = new Date(Date.now() + 120_000).toUTCString();
    const limited = await stub(() => ({ status: 429, body: '', headers: { 'retry-after': date } }));
    const rpc = new RpcClient(limited.url, { callTimeoutMs: 5_000 });
    const error = await rpc.call('block', {}).catch((e) => e);
    assert.ok(error instanceof ChainUnavailableError);
    assert.equal(error.timeout, false);
    assert.match(
      error.message,
      /^block: no RPC endpoint answered \(127\.0\.0\.1:\d+: HTTP 429, retry after 1[12]\d s\)$/,
    );
    // The endpoint rests for the Retry-After up to retry.maxRetryAfterMs (60 s).
    assert.ok(error.retryAfterMs! > 50_000 && error.retryAfterMs! <= 60_000);
    assert.equal(limited.requests.length, 1);
    // The next call does not ask the resting endpoint at all.
    const again = await rpc.call('block', {}).catch((e) => e);
    assert.ok(again instanceof ChainUnavailableError);
    assert.match(again.message, /every endpoint rests after failures/);
    assert.equal(limited.requests.length, 1);
  });

  it('caps a Retry-After at retry.maxRetryAfterMs', async () => {
    let n = 0;
    const limited = await stub(() =>
      n++ === 0 ? { status: 429, body: '', headers: { 'retry-after': '3600' } } : { result: 'back' },
    );
    const rpc = new RpcClient(limited.url, { retry: { maxRetryAfterMs: 20 } });
    assert.equal(await rpc.call('status', []), 'back');
  });

  it("keeps nearcore's INTERNAL_ERROR (HTTP 500 with a JSON-RPC error) an RpcError, not asked again", async () => {
    const internal = await stub(() => ({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        error: {
          name: 'INTERNAL_ERROR',
          cause: { name: 'INTERNAL_ERROR', info: {} },
          code: -32000,
          message: 'Server error',
        },
      }),
    }));
    const error = await new RpcClient(internal.url).call('status', []).catch((e) => e);
    assert.ok(error instanceof RpcError);
    assert.equal(error.errorName, 'INTERNAL_ERROR');
    assert.equal(internal.requests.length, 1);
  });

  it('bounds a whole call by callTimeoutMs, retries and waits included', async () => {
    const slow = await stub(() => ({ delayMs: 5_000, answer: { result: 'late' } }));
    const rpc = new RpcClient([slow.url, slow.url], { timeoutMs: 60_000 });
    const error = await rpc.call('block', {}, { callTimeoutMs: 100 }).catch((e) => e);
    assert.ok(error instanceof ChainUnavailableError);
    assert.equal(error.timeout, true);
    assert.equal(slow.requests.length, 1, 'the call ended with its time, not after the request timeout');
  });

  it('uses the fetch and headers it is given', async () => {
    const s = await stub(() => ({ result: true }));
    const seen: Array<Record<string, string>> = [];
    const rpc = new RpcClient(s.url, {
      headers: { 'x-api-key': 'k' },
      fetch: (url, init) => {
        seen.push(init?.headers as Record<string, string>);
        return fetch(url, init);
      },
    });
    assert.equal(await rpc.call('status', []), true);
    assert.equal(seen[0]['x-api-key'], 'k');
    assert.equal(seen[0]['content-type'], 'application/json');
  });
});
