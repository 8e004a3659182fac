import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isShadeboxError, ShadeboxError } from './index.js';

class NotFound extends ShadeboxError<{ id: string }> {
  constructor(id: string, cause?: unknown) {
    super(`no such thing ${id}`, { details: { id }, docsPath: 'docs/things.md#ids', cause });
  }
}

describe('ShadeboxError', () => {
  it('keeps the short message as message, the details, the docs path and the cause', () => {
    const root = new Error('socket closed');
    const error = new NotFound('x1', root);
    assert.equal(error.name, 'NotFound');
    assert.equal(error.message, 'no such thing x1');
    assert.equal(error.shortMessage, error.message);
    assert.deepEqual(error.details, { id: 'x1' });
    assert.equal(error.docsPath, 'docs/things.md#ids');
    assert.equal(error.cause, root);
    assert.ok(error instanceof ShadeboxError && error instanceof Error);
    assert.ok(isShadeboxError(error));
    assert.ok(!isShadeboxError(root));
  });

  it('walks causes to the innermost or to the first match', () => {
    const inner = new NotFound('inner');
    const outer = new ShadeboxError('outer', { cause: new Error('middle', { cause: inner }) });
    assert.equal(outer.walk(), inner);
    assert.equal(
      outer.walk((e) => e instanceof NotFound),
      inner,
    );
    assert.equal(
      outer.walk((e) => e instanceof TypeError),
      undefined,
    );
  });

  it('describes itself with the docs path and every cause, and serialises without the stack', () => {
    const error = new NotFound('x2', new Error('disk full'));
    assert.equal(error.describe(), 'no such thing x2\nDocs: docs/things.md#ids\nCaused by: disk full');
    assert.deepEqual(JSON.parse(JSON.stringify(error)), {
      name: 'NotFound',
      message: 'no such thing x2',
      details: { id: 'x2' },
      docsPath: 'docs/things.md#ids',
    });
    assert.deepEqual(new ShadeboxError('bare').details, {});
  });
});
