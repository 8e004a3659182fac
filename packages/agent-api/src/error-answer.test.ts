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
    ];
    for (const [error, status, body] of cases) assert.deepEqual(answer(error), [status, { error: body }]);
    // The chain errors keep their message and add the next step.
    const timeout = answer(new ChainUnavailableError('send_tx: timed out', true));
    assert.equal(timeout[0], 504);
    const t = (timeout[1] as { error: { code: string; message: string } }).error;
    assert.equal(t.code, 'chain_timeout');
    assert.match(t.message, /^send_tx: timed out: .*check its effect before sending it again/);
    const down = answer(new ChainUnavailableError('block: no RPC endpoint answered', false));
    assert.equal(down[0], 502);
    const d = (down[1] as { error: { code: string; message: string } }).error;
    assert.equal(d.code, 'chain_unreachable');
    assert.match(d.message, /^block: no RPC endpoint answered: .*NEAR_RPC_URL/);
    assert.equal(
      errorAnswer(new ChainUnavailableError('block: no RPC endpoint answered', false), log).headers,
      undefined,
    );
    const resting = new ChainUnavailableError('block: no RPC endpoint answered', false, {
      retryAfterMs: 4_200,
    });
    assert.deepEqual(
      errorAnswer(resting, log).headers,
      { 'retry-after': '5' },
      'the providers said when to come back',
    );
    const refused = rpcErrorOf('send_tx', {
      name: 'HANDLER_ERROR',
      cause: { name: 'INVALID_TRANSACTION', info: {} },
      data: { TxExecutionError: { InvalidTxError: { NotEnoughBalance: {} } } },
    });
    assert.equal(answer(refused)[0], 422);
    const r = (answer(refused)[1] as { error: { code: string; message: string; details: unknown } }).error;
    assert.equal(r.code, 'invalid_transaction');
    assert.match(r.message, /^the agent account cannot pay for this call.*AGENT_FUNDING_AMOUNT/);
    assert.deepEqual(r.details, {
      name: 'HANDLER_ERROR',
      cause: { name: 'INVALID_TRANSACTION', info: {} },
      data: { TxExecutionError: { InvalidTxError: { NotEnoughBalance: {} } } },
    });
    const other = new RpcError('query', { name: 'HANDLER_ERROR', cause: { name: 'UNKNOWN_BLOCK' } });
    const [status, body] = answer(other);
    assert.equal(status, 502);
    const o = (body as { error: { code: string; message: string; details: unknown } }).error;
    assert.equal(o.code, 'chain_error');
    assert.match(o.message, /UNKNOWN_BLOCK/);
    assert.deepEqual(o.details, { name: 'HANDLER_ERROR', cause: { name: 'UNKNOWN_BLOCK' } });
  });

  it("a contract failure is a sentence with nearcore's object under details", () => {
    const failure = {
      ActionError: { index: 0, kind: { FunctionCallError: { MethodResolveError: 'MethodNotFound' } } },
    };
    const [status, body] = answer(new ContractError(JSON.stringify(failure), false, { nearError: failure }));
    assert.equal(status, 404);
    const e = (body as { error: Record<string, unknown> }).error;
    assert.equal(e.code, 'method_not_found');
    assert.equal(e.field, 'methodName');
    assert.doesNotMatch(String(e.message), /ActionError/);
    assert.deepEqual(e.details, failure);
  });

  it('answers anything else as a generic 500 and logs it', () => {
    assert.deepEqual(answer(new TypeError('x is undefined')), [
      500,
      { error: { code: 'internal', message: 'internal error' } },
    ]);
    assert.deepEqual(logged, ['request failed']);
  });
});
