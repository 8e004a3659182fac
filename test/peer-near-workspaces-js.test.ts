/**
 * near-workspaces-js's own sandbox test suite, unchanged, with `node_modules/.bin/near-sandbox` as its
 * `near-sandbox` binary (docs/near-sandbox.md). The suite and its runner live outside the repository, in
 * `../shared/peer-suites/` (near-workspaces-js at a pinned commit, installed from the npm registry with pnpm
 * by the runner); without that folder this test is skipped.
 *
 * The install is kept between runs in SUITE_WORK (default: a fixed folder in the temp dir), so only the first
 * run pays for it. Every test ava runs must pass.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { peerSuiteSkip, runPeerSuite } from './support/peer-suite.js';

/** The install (a few minutes on a cold npm cache) and the suite (about 3 minutes): bounded, generous. */
const TIMEOUT_MS = 30 * 60_000;

test("near-workspaces-js's sandbox suite passes with node_modules/.bin/near-sandbox", {
  skip: peerSuiteSkip('near-workspaces-js'),
  timeout: TIMEOUT_MS,
}, async () => {
  const { code, output } = await runPeerSuite('near-workspaces-js');
  const tail = output.slice(-6000);
  assert.equal(code, 0, `the runner exited with ${code}:\n${tail}`);
  // ava closes each run (the suite's own tests, then examples/simple-project) with "N tests passed" or
  // "N test(s) failed" / "known failure" / "skipped" / "todo" lines.
  const passed = [...output.matchAll(/^\s*(\d+) tests? passed/gm)].map((m) => Number(m[1]));
  assert.equal(passed.length, 2, `two ava runs should each report their passed tests:\n${tail}`);
  assert.ok(
    passed.every((n) => n > 0),
    tail,
  );
  assert.doesNotMatch(
    output,
    /^\s*\d+ (tests? failed|known failures?|tests? skipped|tests? todo|uncaught exceptions?|unhandled rejections?)/m,
    tail,
  );
  assert.doesNotMatch(output, /✘/, tail);
});
