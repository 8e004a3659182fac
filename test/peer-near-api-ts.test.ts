/**
 * near-api-ts's own sandbox test suite (NEAR's TypeScript client), unchanged, with `node_modules/.bin/near-sandbox`
 * as its `near-sandbox` binary (docs/near-sandbox.md). It checks nearcore's exact error kinds for invalid
 * transactions and actions, fees, access-key flows, and validates every RPC answer against nearcore's OpenAPI
 * (Zod) schemas. The suite and its runner live outside the repository, in `../shared/peer-suites/` (near-api-ts at
 * a pinned commit, installed from the npm registry with pnpm by the runner, whose header says what it leaves out
 * and why); without that folder this test is skipped.
 *
 * The install is kept between runs in SUITE_WORK (default: a fixed folder in the temp dir), so only the first
 * run pays for it. vitest's counts must be exactly these: every test the runner selects passes but upstream's
 * own skips.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { peerSuiteSkip, runPeerSuite } from './support/peer-suite.js';

/** universal/tests/integrations (95 tests) and universal/tests/unit (217), as the runner selects them. */
const EXPECTED = { passed: 302, skipped: 10 };
/** The install (a few minutes on a cold npm cache) and the suite (about 3 minutes): bounded, generous. */
const TIMEOUT_MS = 30 * 60_000;

test("near-api-ts's sandbox suite passes with node_modules/.bin/near-sandbox", {
  skip: peerSuiteSkip('near-api-ts'),
  timeout: TIMEOUT_MS,
}, async () => {
  const { code, output } = await runPeerSuite('near-api-ts');
  // vitest's failures come before its summary: keep both in what a failing assertion shows.
  const failures = [...output.matchAll(/^.*(?:×|FAIL).*$/gm)].map((m) => m[0]).join('\n');
  const tail = `${failures.slice(0, 6000)}\n…\n${output.slice(-3000)}`;
  assert.equal(code, 0, `the runner exited with ${code}:\n${tail}`);
  // vitest's summary: "Tests  302 passed | 10 skipped (312)".
  const summary = /^\s*Tests\s+(.*)\((\d+)\)\s*$/m.exec(output);
  assert.ok(summary, `vitest printed no "Tests" summary:\n${tail}`);
  const counts = Object.fromEntries(
    [...summary[1].matchAll(/(\d+) (\w+)/g)].map((m) => [m[2], Number(m[1])] as [string, number]),
  );
  assert.deepEqual(counts, EXPECTED, `vitest's counts: ${summary[0].trim()}\n${tail}`);
  assert.match(output, /^\s*Test Files\s+\d+ passed \| \d+ skipped \(\d+\)\s*$/m, tail);
});
