/** The OpenAPI document is OpenAPI 3, describes every route, and docs/agent-api-openapi.json is up to date. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi.js';

describe('openapi.json', () => {
  it('describes every route, and the copy in docs/ is the same document', () => {
    const doc = openApiDocument() as { openapi: string; paths: Record<string, unknown> };
    assert.match(doc.openapi, /^3\./);
    for (const p of ['/getAccountId', '/getBalance', '/call', '/view', '/health', '/openapi.json']) {
      assert.ok(doc.paths[p], p);
    }
    const path = fileURLToPath(new URL('../../../docs/agent-api-openapi.json', import.meta.url));
    assert.deepEqual(
      JSON.parse(readFileSync(path, 'utf8')),
      JSON.parse(JSON.stringify(doc)),
      'docs/agent-api-openapi.json is stale: run `npm run docs:openapi`',
    );
  });
});
