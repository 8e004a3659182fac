/** The text of outcomes, failures, actions and units the inspection commands print. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeAction, describePermission } from './describe-actions.js';
import { describeFailure } from './describe-failure.js';
import { formatOutcome } from './format-outcome.js';
import { formatNear, formatTgas } from './format-units.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('inspection text', () => {
  it('units: exact NEAR, Tgas to three decimals', () => {
    assert.equal(formatNear(1_500_000_000_000_000_000_000_000n), '1.5 NEAR');
    assert.equal(formatNear('1'), '0.000000000000000000000001 NEAR');
    assert.equal(formatTgas(2_428_000_000_000), '2.428 Tgas');
    assert.equal(formatTgas('30000000000000'), '30 Tgas');
    assert.equal(formatTgas(0), '0 Tgas');
  });

  it('failures in a sentence', () => {
    assert.equal(
      describeFailure({
        ActionError: {
          index: 0,
          kind: { FunctionCallError: { ExecutionError: 'Smart contract panicked: no' } },
        },
      }),
      'action 0 failed: FunctionCallError: ExecutionError: Smart contract panicked: no',
    );
    assert.equal(
      describeFailure({
        ActionError: { index: 1, kind: { AccountDoesNotExist: { account_id: 'bob.test.near' } } },
      }),
      'action 1 failed: AccountDoesNotExist: account_id: bob.test.near',
    );
    assert.equal(
      describeFailure({ InvalidTxError: { InvalidNonce: { tx_nonce: 5, ak_nonce: 7 } } }),
      'invalid transaction: InvalidNonce (tx_nonce: 5, ak_nonce: 7)',
    );
  });

  it('actions and permissions', () => {
    assert.equal(describeAction('CreateAccount'), 'CreateAccount');
    assert.equal(describeAction({ Transfer: { deposit: '1000000000000000000000000' } }), 'Transfer 1 NEAR');
    assert.equal(
      describeAction({
        FunctionCall: { method_name: 'set', args: b64('{"a":1}'), gas: 30e12, deposit: '0' },
      }),
      'FunctionCall set {"a":1}  30 Tgas, deposit 0 NEAR',
    );
    assert.equal(
      describeAction({
        FunctionCall: {
          method_name: 'raw',
          args: Buffer.from([0, 1, 2]).toString('base64'),
          gas: 1e12,
          deposit: '0',
        },
      }),
      'FunctionCall raw (3 bytes)  1 Tgas, deposit 0 NEAR',
    );
    assert.equal(
      describePermission({ FunctionCall: { allowance: null, receiver_id: 'c.near', method_names: [] } }),
      'FunctionCall on c.near (any method; allowance unlimited)',
    );
  });

  it('an outcome: totals over the receipts, the tree with logs and failures', () => {
    const outcome = (executor: string, ids: string[], status: unknown, logs: string[] = []) => ({
      logs,
      receipt_ids: ids,
      gas_burnt: 1_000_000_000_000,
      tokens_burnt: '100000000000000000000',
      executor_id: executor,
      status,
    });
    const text = formatOutcome(
      {
        final_execution_status: 'FINAL',
        status: {
          Failure: {
            ActionError: {
              index: 0,
              kind: { FunctionCallError: { ExecutionError: 'Smart contract panicked: x' } },
            },
          },
        },
        transaction: { hash: 'TX', signer_id: 'a.near', receiver_id: 'c.near', actions: [] },
        transaction_outcome: {
          id: 'TX',
          block_hash: 'B',
          outcome: outcome('a.near', ['R1'], { SuccessReceiptId: 'R1' }),
        },
        receipts_outcome: [
          {
            id: 'R1',
            block_hash: 'B',
            outcome: outcome('c.near', ['R2'], { Failure: { ActionError: { index: 0, kind: 'x' } } }, [
              'hello',
              'world',
            ]),
          },
          { id: 'R2', block_hash: 'B', outcome: outcome('a.near', [], { SuccessValue: '' }) },
        ],
      },
      7,
    );
    assert.match(
      text,
      /^Status +failed: action 0 failed: FunctionCallError: ExecutionError: Smart contract panicked: x$/m,
    );
    assert.match(text, /^Reached +FINAL$/m);
    assert.match(text, /^Block +7 \(B\)$/m);
    assert.match(text, /^Gas burnt +3 Tgas$/m);
    assert.match(text, /^Tokens burnt +0\.0003 NEAR$/m);
    assert.match(
      text,
      /^ {2}R1 {2}c\.near\n {6}status +failed: action 0 failed: x\n {6}burnt +1 Tgas, 0\.0001 NEAR\n {6}logs +hello\n {14}world\n {4}R2 {2}a\.near\n/m,
    );
  });
});
