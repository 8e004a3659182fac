import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChainUnavailableError } from './chain-unavailable-error.js';
import { RpcClient } from './rpc-client.js';
import { followTransaction, levelReached } from './transaction-follow-up.js';

type Answer = { result?: unknown; error?: unknown } | 'unreachable';

/** A client whose node answers `tx` from `answers` (the last one repeats), recording each wait_until. */
function scripted(answers: Answer[]) {
  const asked: string[] = [];
  const rpc = new RpcClient('http://node.invalid', {
    timeoutMs: 1_000,
    fetch: async (_url, init) => {
      const request = JSON.parse(String(init?.body));
      asked.push(`${request.method}:${request.params.wait_until}`);
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      if (answer === 'unreachable') throw new TypeError('fetch failed');
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...answer }));
    },
  });
  return { rpc, asked };
}

const UNKNOWN = {
  error: {
    name: 'HANDLER_ERROR',
    cause: { name: 'UNKNOWN_TRANSACTION', info: { requested_transaction_hash: 'h' } },
    code: -32000,
    message: 'Server error',
    data: "Transaction h doesn't exist",
  },
};
const TIMEOUT = { error: { name: 'HANDLER_ERROR', cause: { name: 'TIMEOUT_ERROR' }, data: 'Timeout' } };
const EXECUTED = {
  result: { final_execution_status: 'EXECUTED', status: { SuccessValue: '' }, transaction: { hash: 'h' } },
};

describe('followTransaction', () => {
  it('answers with the outcome of a transaction the node has executed', async () => {
    const { rpc, asked } = scripted([EXECUTED]);
    const r = await followTransaction(rpc, 'h', 'a.near', { waitUntil: 'EXECUTED' });
    assert.equal(r.state, 'executed');
    assert.deepEqual(asked, ['tx:NONE']);
  });

  it('waits at the asked level for a transaction still in the pool, through a node timeout', async () => {
    const { rpc, asked } = scripted([
      { result: { final_execution_status: 'NONE' } },
      TIMEOUT,
      { result: { final_execution_status: 'INCLUDED', status: 'Started' } },
      EXECUTED,
    ]);
    const r = await followTransaction(rpc, 'h', 'a.near', { waitUntil: 'EXECUTED', pollMs: 1 });
    assert.equal(r.state, 'executed');
    assert.deepEqual(asked, ['tx:NONE', 'tx:EXECUTED', 'tx:NONE', 'tx:EXECUTED']);
  });

  it('calls a transaction dropped once it stays unknown for dropConfirmMs, not on the first read', async () => {
    const { rpc, asked } = scripted([UNKNOWN]);
    const started = Date.now();
    const r = await followTransaction(rpc, 'h', 'a.near', {
      waitUntil: 'EXECUTED',
      dropConfirmMs: 50,
      pollMs: 5,
    });
    assert.equal(r.state, 'dropped');
    assert.ok(Date.now() - started >= 50);
    assert.ok(asked.length >= 2);
  });

  it('an unknown that becomes known starts the confirmation again', async () => {
    const { rpc } = scripted([UNKNOWN, { result: { final_execution_status: 'NONE' } }, TIMEOUT, EXECUTED]);
    const r = await followTransaction(rpc, 'h', 'a.near', {
      waitUntil: 'EXECUTED',
      dropConfirmMs: 10_000,
      pollMs: 1,
    });
    assert.equal(r.state, 'executed');
  });

  it('gives up with the chain error when no endpoint answers for unreachableMs', async () => {
    const { rpc } = scripted(['unreachable']);
    await assert.rejects(
      followTransaction(rpc, 'h', 'a.near', { waitUntil: 'EXECUTED', unreachableMs: 30, pollMs: 5 }),
      (e) => e instanceof ChainUnavailableError && !e.timeout,
    );
  });

  it('levels: FINAL satisfies EXECUTED; INCLUDED_FINAL does not satisfy EXECUTED_OPTIMISTIC', () => {
    assert.ok(levelReached('FINAL', 'EXECUTED'));
    assert.ok(levelReached('EXECUTED', 'EXECUTED_OPTIMISTIC'));
    assert.ok(!levelReached('INCLUDED_FINAL', 'EXECUTED_OPTIMISTIC'));
    assert.ok(!levelReached('EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL'));
    assert.ok(!levelReached('NONE', 'INCLUDED'));
    assert.ok(!levelReached('bogus', 'NONE'));
  });
});
