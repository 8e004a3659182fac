import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UsageError } from '../usage-error.js';
import { flagValue, parseNeardArgs } from './neard-args.js';

describe("neard's command line", () => {
  test('global flags before the command, its flags after it, in every form harnesses use', () => {
    const args = parseNeardArgs([
      '--home',
      '/tmp/h',
      'run',
      '--rpc-addr',
      '0.0.0.0:3030',
      '--network-addr=0.0.0.0:24567',
      '--archive',
      '--boot-nodes',
      'ed25519:x@127.0.0.1:1',
    ]);
    assert.deepEqual(args.words, ['run']);
    assert.equal(args.flags.get('home'), '/tmp/h');
    assert.equal(args.flags.get('rpc-addr'), '0.0.0.0:3030');
    assert.equal(args.flags.get('network-addr'), '0.0.0.0:24567');
    assert.equal(args.flags.get('archive'), true);
    assert.equal(args.flags.get('boot-nodes'), 'ed25519:x@127.0.0.1:1');
  });

  test("neard's switches never take the next word; unknown flags take it unless it is a flag", () => {
    const args = parseNeardArgs([
      '--home',
      'h',
      'init',
      '--fast',
      '--chain-id',
      'localnet',
      '--weird',
      '--x',
      'v',
    ]);
    assert.deepEqual(args.words, ['init']);
    assert.equal(args.flags.get('fast'), true);
    assert.equal(args.flags.get('chain-id'), 'localnet');
    assert.equal(args.flags.get('weird'), true);
    assert.equal(args.flags.get('x'), 'v');
    const dump = parseNeardArgs(['--home', 'h', 'view-state', 'dump-state', '--stream']);
    assert.deepEqual(dump.words, ['view-state', 'dump-state']);
    assert.equal(dump.flags.get('stream'), true);
    assert.equal(parseNeardArgs(['-V']).flags.get('version'), true);
    assert.equal(parseNeardArgs(['-h']).flags.get('help'), true);
  });

  test('a flag that needs a value and got none is a usage error', () => {
    const args = parseNeardArgs(['init', '--chain-id']);
    assert.throws(() => flagValue(args, 'chain-id'), UsageError);
    assert.equal(flagValue(args, 'account-id'), undefined);
  });
});
