/** The text of a `call_function` result: the JSON of its fields in sorted order, the result bytes as numbers. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { viewCallJson } from './view-call.js';

const at = { hash: '4hSjGiDbVP3XSnVzsqPJDkg4Y6RZtZWHqQkvkxoLnbTW', height: 1234 };

/** What the text must be: `JSON.stringify` of the fields as nearcore's `serde_json::Value` sorts them. */
function expected(fields: { result?: Uint8Array; error?: string; logs: string[] }): string {
  const value: Record<string, unknown> = { block_hash: at.hash, block_height: at.height };
  if (fields.error !== undefined) value.error = fields.error;
  value.logs = fields.logs;
  if (fields.result !== undefined) value.result = Array.from(fields.result);
  return JSON.stringify(value);
}

describe('viewCallJson', () => {
  it('writes every byte value, and results empty, small and past its 64 KiB scratch buffer', () => {
    const every = Uint8Array.from({ length: 256 }, (_, b) => b);
    const large = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 37) & 0xff);
    for (const result of [
      every,
      new Uint8Array(0),
      Uint8Array.of(0),
      Uint8Array.of(255, 10, 9, 100),
      large,
      every,
    ]) {
      const logs = result.length === 1 ? ['a "quoted" log', 'é'] : [];
      assert.equal(viewCallJson({ result, logs }, at), expected({ result, logs }));
    }
  });

  it('writes an error with empty logs', () => {
    const error = 'wasm execution failed with error: MethodResolveError(MethodNotFound)';
    assert.equal(viewCallJson({ error }, at), expected({ error, logs: [] }));
  });
});
