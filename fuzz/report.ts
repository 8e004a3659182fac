/** The readable report of a fuzz run. */
import type { FuzzReport } from './fuzz.js';

export function formatReport(r: FuzzReport): string {
  const lines: string[] = [];
  lines.push(
    `fuzz: seed ${r.seed}, ${r.requests} requests in ${r.cases} cases (${r.transactions} signed transactions) in ${r.seconds.toFixed(1)} s, concurrency ${r.concurrency}`,
  );
  lines.push(
    `RSS of shadebox up: start ${r.rss.startMb.toFixed(0)} MB, max ${r.rss.maxMb.toFixed(0)} MB, end ${r.rss.endMb.toFixed(0)} MB (${r.rss.samples} samples)`,
  );
  if (r.chain) {
    lines.push(
      `chain: ${r.chain.blocks} blocks (heights ${r.chain.genesisHeight}..${r.chain.head}), ${r.chain.accounts} accounts; supply checked${r.chain.restartChecked ? ', restart compared' : ''}`,
    );
  }
  lines.push(
    `worker time by surface (s): ${Object.entries(r.secondsBySurface)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  lines.push(`exit code on SIGTERM: ${r.exitCode}; error log lines: ${r.errorLogLines}`);
  for (const l of r.errorLogSample) lines.push(`  log: ${l.slice(0, 300)}`);
  lines.push('', 'cases by kind:');
  for (const [k, v] of Object.entries(r.byLabel)) lines.push(`  ${String(v).padStart(8)}  ${k}`);
  lines.push('', 'answers by surface and shape:');
  for (const [k, v] of Object.entries(r.byShape)) lines.push(`  ${String(v).padStart(8)}  ${k}`);
  lines.push('', `violations: ${r.violations.length} distinct, ${r.runViolations.length} of the run`);
  for (const v of r.runViolations) lines.push(`  run: ${v.slice(0, 1000)}`);
  for (const v of r.violations) {
    lines.push(`  case ${v.case} (${v.label}, ×${v.count}): ${v.violation}`);
    lines.push(`    reproduce: npm run fuzz -- ${r.caseOptions} --case ${v.case}`);
    lines.push(`    request: ${v.request.slice(0, 600)}`);
    lines.push(`    answer: ${v.answer.slice(0, 400)}`);
  }
  return `${lines.join('\n')}\n`;
}
