/** The OpenAPI document is valid-looking OpenAPI 3 and is written to docs/agent-api-openapi.json. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi.js';

describe('openapi.json', () => {
  it('describes every route and is written to docs/', () => {
    const doc = openApiDocument() as { openapi: string; paths: Record<string, unknown> };
    assert.match(doc.openapi, /^3\./);
    for (const p of ['/getAccountId', '/getBalance', '/call', '/view', '/health', '/openapi.json']) {
      assert.ok(doc.paths[p], p);
    }
    const out = fileURLToPath(new URL('../../../docs/agent-api-openapi.json', import.meta.url));
    writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  });
});
