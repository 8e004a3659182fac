/**
 * parseQueryRequest's direct reading of the plain `call_function` form agrees with serde's general reading: the
 * same params with one more key (which `RpcQueryRequest`'s flattened fields ignore) take the general path.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQueryRequest } from './query-request.js';

const plain = (overrides: Record<string, unknown> = {}) => ({
  request_type: 'call_function',
  finality: 'final',
  account_id: 'kv.test.near',
  method_name: 'get',
  args_base64: Buffer.from('{"k":1}').toString('base64'),
  ...overrides,
});

/** The outcome of a reading: its result, or its error's message. */
function outcome(params: unknown): unknown {
  try {
    return parseQueryRequest(params);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('parseQueryRequest, the plain call_function form', () => {
  const forms = [
    plain(),
    plain({ finality: 'optimistic' }),
    plain({ finality: 'near-final' }),
    plain({ args_base64: '' }),
    plain({ account_id: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' }),
    plain({ method_name: '' }),
  ];
  for (const params of forms) {
    it(`reads ${JSON.stringify(params).slice(0, 80)}… as serde does`, () => {
      const direct = parseQueryRequest(params);
      assert.equal(direct.requestType, 'call_function');
      assert.deepEqual(direct, parseQueryRequest({ ...params, unrelated: null }));
    });
  }

  const invalid = [
    plain({ account_id: 'A' }),
    plain({ account_id: 'a..near' }),
    plain({ args_base64: 'not base64!' }),
    plain({ finality: 'finalized' }),
    plain({ finality: { final: null } }),
    plain({ method_name: 7 }),
    plain({ request_type: 'view_account' }),
  ];
  for (const params of invalid) {
    it(`leaves ${JSON.stringify(params).slice(0, 80)}… to serde's reading and its answer`, () => {
      assert.deepEqual(outcome(params), outcome({ ...params, unrelated: null }));
    });
  }

  it('a missing field is still serde’s error', () => {
    const { args_base64: _, ...params } = plain();
    assert.match(String((outcome(params) as { error: string }).error), /missing field `args_base64`/);
  });
});
