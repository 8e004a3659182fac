/**
 * The fuzzer at small N (fuzz/): a few thousand requests with a fixed seed against `shadebox up` on a disk home,
 * every answer of a documented status and shape, both surfaces up throughout, the chain consistent and the same
 * after a restart, exit 0 on SIGTERM. A failure prints the report, whose reproducer lines repeat a case alone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runFuzz } from '../fuzz/fuzz.js';
import { formatReport } from '../fuzz/report.js';

test('fuzz: 3000 requests, seed 20261124, no violation', { timeout: 900_000 }, async (t) => {
  const report = await runFuzz({
    seed: 20261124,
    requests: 3000,
    seconds: 600,
    concurrency: 8,
    restartCheck: true,
    fromSource: true,
    maxRssMb: 1024,
    bursts: { sharePercent: 10, maxSize: 200 },
  });
  t.diagnostic(formatReport(report).split('\n').slice(0, 6).join('\n'));
  const problems = [...report.runViolations, ...report.violations.map((v) => `${v.label}: ${v.violation}`)];
  assert.deepEqual(problems, [], formatReport(report));
  assert.ok(report.requests >= 3000, `${report.requests} requests`);
  assert.ok(report.transactions > 0, 'valid transactions were mixed in');
  assert.equal(report.exitCode, 0);
  assert.equal(report.chain?.restartChecked, true);
  // Every surface was exercised.
  for (const prefix of ['rpc:', 'agent:', 'raw:rpc:', 'raw:agent:', 'tx:']) {
    assert.ok(
      Object.keys(report.byLabel).some((k) => k.startsWith(prefix)),
      `no ${prefix} case`,
    );
  }
});
