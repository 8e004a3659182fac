import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentApiListenError, listenError } from './listen-error.js';

const sys = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe('listen errors', () => {
  it('name the setting to change', () => {
    const busy = listenError(sys('EADDRINUSE'), '127.0.0.1', 3140);
    assert.ok(busy instanceof AgentApiListenError);
    assert.match(
      busy.message,
      /127\.0\.0\.1:3140: the port is already in use.*AGENT_API_PORT \(shadebox up: --agent-port\)/,
    );
    assert.deepEqual(busy.details, {
      host: '127.0.0.1',
      port: 3140,
      code: 'EADDRINUSE',
      variable: 'AGENT_API_PORT',
    });
    const low = listenError(sys('EACCES'), '::1', 80) as AgentApiListenError;
    assert.match(low.message, /\[::1\]:80: permission denied.*1024 or above/);
    const host = listenError(sys('EADDRNOTAVAIL'), '10.9.9.9', 3140) as AgentApiListenError;
    assert.equal(host.details.variable, 'AGENT_API_HOST');
    assert.match(host.message, /set AGENT_API_HOST/);
  });

  it('leave other errors as they are', () => {
    const other = new Error('boom');
    assert.equal(listenError(other, '127.0.0.1', 1), other);
  });
});
