/** Unit tests of the flag parsing: every parse error becomes a UsageError naming its flag. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exclusiveFlags, integerFlag, parseFlags, portFlag } from './args.js';
import { UsageError } from './usage-error.js';

const OPTIONS = {
  port: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error;
  }
  assert.fail('expected a UsageError');
}

describe('parseFlags', () => {
  it('parses strings, booleans and short flags', () => {
    assert.deepEqual(parseFlags('t', ['--port', '5', '--json', '-h'], OPTIONS), {
      port: '5',
      json: true,
      help: true,
    });
    assert.deepEqual(parseFlags('t', ['--port=7'], OPTIONS), { port: '7' });
  });

  it('keeps a negative number as the value of its flag', () => {
    assert.deepEqual(parseFlags('t', ['--port', '-5', '--json'], OPTIONS), { port: '-5', json: true });
  });

  it('names the flag of every parse error', () => {
    const unknown = usageError(() => parseFlags('shadebox x', ['--nope'], OPTIONS));
    assert.equal(unknown.flag, '--nope');
    assert.equal(unknown.line, "shadebox x: error: unknown flag --nope (see 'shadebox x --help')");
    assert.equal(usageError(() => parseFlags('t', ['-q'], OPTIONS)).flag, '-q');
    assert.equal(usageError(() => parseFlags('t', ['--port'], OPTIONS)).message, '--port needs a value');
    assert.equal(usageError(() => parseFlags('t', ['--port', '--json'], OPTIONS)).flag, '--port');
    assert.equal(
      usageError(() => parseFlags('t', ['--json=1'], OPTIONS)).message,
      '--json does not take a value',
    );
    assert.equal(
      usageError(() => parseFlags('t', ['extra'], OPTIONS)).message,
      "unexpected argument 'extra'",
    );
    assert.equal(usageError(() => parseFlags('t', ['--', '--port'], OPTIONS)).flag, '--port');
  });
});

describe('value flags', () => {
  it('ports: 0 to 65535, decimal digits only', () => {
    assert.equal(portFlag('t', '--rpc-port', '0'), 0);
    assert.equal(portFlag('t', '--rpc-port', '65535'), 65535);
    for (const bad of ['65536', '-1', 'abc', '1e3', '0x10', ' 80', '', '3.0']) {
      assert.equal(usageError(() => portFlag('t', '--rpc-port', bad)).flag, '--rpc-port', bad);
    }
  });

  it('integers in range', () => {
    const range = { min: 1, max: 10, what: '1 to 10' };
    assert.equal(integerFlag('t', '--n', '10', range), 10);
    assert.match(
      usageError(() => integerFlag('t', '--n', '11', range)).message,
      /invalid value '11' for --n: expected 1 to 10/,
    );
  });

  it('exclusive flags', () => {
    exclusiveFlags('t', { '--a': true, '--b': false });
    assert.equal(
      usageError(() => exclusiveFlags('t', { '--a': true, '--b': true })).message,
      '--a and --b cannot be used together',
    );
  });
});
