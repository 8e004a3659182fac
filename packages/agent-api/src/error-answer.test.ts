import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChainUnavailableError, ContractError, RpcError, rpcErrorOf } from '@shadebox/near-client';
import { errorAnswer } from './error-answer.js';
import { HttpError } from './http-error.js';

describe('errorAnswer', () => {
  const logged: string[] = [];
  const log = { info: () => {}, warn: () => {}, error: (_f: object, m?: string) => logged.push(m ?? '') };
  const answer = (e: unknown) => {
    const a = errorAnswer(e, log);
    return [a.status, a.body];
  };

  it('maps each error to its status and the one JSON error shape', () => {
    const cases: Array<[Error, number, Record<string, string>]> = [
      [
        new HttpError(400, 'invalid_field', 'args must be a JSON object', 'args'),
        400,
        { code: 'invalid_field', message: 'args must be a JSON object', field: 'args' },
      ],
      [
        new ContractError('no worker found', true),
        422,
        { code: 'contract_panic', message: 'no worker found' },
      ],
      [
        new ContractError('MethodNotFound', false),
        422,
        { code: 'contract_error', message: 'MethodNotFound' },
      ],
      [
        new ChainUnavailableError('send_tx: timed out', true),
        504,
        { code: 'chain_timeout', message: 'send_tx: timed out' },
      ],
      [
        new ChainUnavailableError('block: no RPC endpoint answered', false),
        502,
        { code: 'chain_unreachable', message: 'block: no RPC endpoint answered' },
      ],
    ];
    for (const [error, status, body] of cases) assert.deepEqual(answer(error), [status, { error: body }]);
    const refused = rpcErrorOf('send_tx', {
      name: 'HANDLER_ERROR',
      cause: { name: 'INVALID_TRANSACTION', info: {} },
      data: { TxExecutionError: { InvalidTxError: { NotEnoughBalance: {} } } },
    });
    assert.equal(answer(refused)[0], 422);
    assert.equal((answer(refused)[1] as { error: { code: string } }).error.code, 'invalid_transaction');
    const other = new RpcError('query', { name: 'HANDLER_ERROR', cause: { name: 'UNKNOWN_BLOCK' } });
    assert.deepEqual(answer(other), [502, { error: { code: 'chain_error', message: other.message } }]);
  });

  it('answers anything else as a generic 500 and logs it', () => {
    assert.deepEqual(answer(new TypeError('x is undefined')), [
      500,
      { error: { code: 'internal', message: 'internal error' } },
    ]);
    assert.deepEqual(logged, ['request failed']);
  });
});
