import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyPair } from '@shadebox/primitives';
import { createRedactor } from './redaction.js';

describe('secret redaction', () => {
  it('removes every known secret key, whole or its base58 body, from text and log entries', () => {
    const r = createRedactor();
    assert.equal(r.redact('nothing known yet'), 'nothing known yet');
    const a = KeyPair.fromRandom().toString();
    const b = KeyPair.fromRandom().toString();
    r.addSecret(a);
    r.addSecret(b);
    const bodyOfB = b.slice(b.indexOf(':') + 1);
    assert.equal(r.redact(`key ${a} and ${bodyOfB}.`), 'key [redacted] and [redacted].');
    const lines: unknown[] = [];
    const push = (fields: object, message?: string) => lines.push([fields, message]);
    const log = r.logger({ info: push, warn: push, error: push });
    log.warn({ error: `bad ${a}`, nested: { k: b } }, `message ${bodyOfB}`);
    assert.deepEqual(lines, [
      [{ error: 'bad [redacted]', nested: { k: '[redacted]' } }, 'message [redacted]'],
    ]);
  });
});
