/** The node:test example shown in packages/testing/README.md and docs/agent-testing.md is the one that runs. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

/** The example file without its first line (the comment saying where it is shown). */
const example = read('./example.e2e.test.ts').split('\n').slice(1).join('\n');

for (const doc of ['../README.md', '../../../docs/agent-testing.md']) {
  it(`${doc.replace(/^(\.\.\/)+/, '')} shows src/example.e2e.test.ts as it is`, () => {
    const blocks = [...read(doc).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    assert.ok(blocks.includes(example), `a ts block of ${doc} is src/example.e2e.test.ts (from its line 2)`);
  });
}
