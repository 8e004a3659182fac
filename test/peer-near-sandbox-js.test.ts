/**
 * near-sandbox-js's own test suite (the `near-sandbox` launcher that near-api-js and near-api-ts start the sandbox
 * with), unchanged, with `node_modules/.bin/near-sandbox` as its binary (docs/near-sandbox.md): `init --fast`,
 * genesis and config edits, custom ports and accounts, port locking, tear-down, and a dump-state -> restart round
 * trip. The suite and its runner live outside the repository, in `../shared/peer-suites/` (near-sandbox-js at a
 * pinned commit, installed from the npm registry with pnpm by the runner); without that folder this test is
 * skipped.
 *
 * The suite binds fixed RPC ports (3030-3032, 3040, 3050): the test first checks they are free, so that a
 * sandbox left running elsewhere is named as the cause rather than seen as a failure of the suite. The install
 * is kept between runs in SUITE_WORK (default: a fixed folder in the temp dir), so only the first run pays for it.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { peerSuiteSkip, runPeerSuite } from './support/peer-suite.js';

/** sandbox.ava 6, path.ava 1, examples 5: all of them, none left out. */
const EXPECTED_PASSED = 12;
/** The ports the suite's tests ask for (sandbox.ava.ts, examples). */
const FIXED_PORTS = [3030, 3031, 3032, 3040, 3050];
/** The install (a minute or two on a cold npm cache) and the suite (about 30 s): bounded, generous. */
const TIMEOUT_MS = 20 * 60_000;

/** Whether 127.0.0.1:`port` can be bound now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

test("near-sandbox-js's suite passes with node_modules/.bin/near-sandbox", {
  skip: peerSuiteSkip('near-sandbox-js'),
  timeout: TIMEOUT_MS,
}, async () => {
  const busy: number[] = [];
  for (const port of FIXED_PORTS) if (!(await portFree(port))) busy.push(port);
  assert.deepEqual(
    busy,
    [],
    `the suite needs 127.0.0.1 ports ${FIXED_PORTS.join(', ')}; in use: ${busy.join(', ')}`,
  );
  const { code, output } = await runPeerSuite('near-sandbox-js');
  const tail = output.slice(-6000);
  assert.equal(code, 0, `the runner exited with ${code}:\n${tail}`);
  // ava closes with "N tests passed", then a line for each other kind it saw (failed, known failure, skipped, todo,
  // uncaught exception, unhandled rejection).
  const passed = [...output.matchAll(/^\s*(\d+) tests? passed/gm)].map((m) => Number(m[1]));
  assert.deepEqual(passed, [EXPECTED_PASSED], tail);
  assert.doesNotMatch(
    output,
    /^\s*\d+ (tests? failed|known failures?|tests? skipped|tests? todo|uncaught exceptions?|unhandled rejections?)/m,
    tail,
  );
  assert.doesNotMatch(output, /✘/, tail);
});
