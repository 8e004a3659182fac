import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isShadeboxError, ShadeboxError } from '@shadebox/errors';
import { AgentApiError, AgentApiTimeoutError, AgentApiUnreachableError } from './errors.js';
import { SignatureFormatError, toEvmSignature } from './signatures.js';

describe('client errors', () => {
  it('extend ShadeboxError with their facts as details', () => {
    const api = new AgentApiError({
      status: 503,
      code: 'not_ready',
      message: 'the agent is booting (stage fund)',
      stage: 'fund',
      body: { error: {} },
    });
    assert.ok(api instanceof ShadeboxError && isShadeboxError(api));
    assert.equal(api.name, 'AgentApiError');
    assert.deepEqual(api.details, { status: 503, code: 'not_ready', stage: 'fund' });
    assert.equal(api.docsPath, 'docs/agent-api.md#errors');
    assert.equal(api.field, undefined);

    const root = new Error('aborted');
    const timeout = new AgentApiTimeoutError('http://x/api/agent/call', 50, { cause: root });
    assert.equal(timeout.name, 'AgentApiTimeoutError');
    assert.deepEqual(timeout.details, { url: 'http://x/api/agent/call', timeoutMs: 50 });
    assert.equal(timeout.cause, root);

    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const unreachable = new AgentApiUnreachableError('http://x/api/agent/call', { cause: refused });
    assert.equal(unreachable.name, 'AgentApiUnreachableError');
    assert.equal(
      unreachable.message,
      'agent API unreachable at POST http://x/api/agent/call (ECONNREFUSED); is the service running?',
    );
    assert.equal(unreachable.walk(), refused.cause);

    assert.throws(
      () => toEvmSignature({} as never),
      (e) => e instanceof SignatureFormatError && isShadeboxError(e) && e.name === 'SignatureFormatError',
    );
  });
});
