/**
 * `npm run fuzz -- [--seed N] [--requests N] [--seconds S] [--concurrency C] [--restart-check] [--case I]
 * [--built] [--max-rss-mb M] [--burst-share P] [--burst-max N] [--out FILE]`: fuzzes both HTTP surfaces of `shadebox up` (see fuzz.ts), prints
 * the report and writes it as JSON. Exit code 1 when anything was violated.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runFuzz } from './fuzz.js';
import { formatReport } from './report.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '20261124' },
    requests: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '600' },
    concurrency: { type: 'string', default: '16' },
    'restart-check': { type: 'boolean', default: false },
    case: { type: 'string' },
    built: { type: 'boolean', default: false },
    'max-rss-mb': { type: 'string', default: '1024' },
    'burst-share': { type: 'string', default: '10' },
    'burst-max': { type: 'string', default: '200' },
    out: { type: 'string', default: 'fuzz-report.json' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(
    `${(await import('node:fs')).readFileSync(new URL('./README.md', import.meta.url), 'utf8')}\n`,
  );
  process.exit(0);
}
const number = (name: string, text: string) => {
  if (!/^\d+$/.test(text)) {
    console.error(`fuzz: --${name} takes a whole number, got '${text}'`);
    process.exit(2);
  }
  return Number(text);
};
const report = await runFuzz({
  seed: number('seed', values.seed!) >>> 0,
  requests: number('requests', values.requests!),
  seconds: number('seconds', values.seconds!),
  concurrency: number('concurrency', values.concurrency!),
  restartCheck: values['restart-check']!,
  onlyCase: values.case === undefined ? undefined : number('case', values.case),
  fromSource: !values.built,
  maxRssMb: number('max-rss-mb', values['max-rss-mb']!),
  bursts: {
    sharePercent: Math.min(100, number('burst-share', values['burst-share']!)),
    maxSize: Math.max(20, number('burst-max', values['burst-max']!)),
  },
  progress: (line) => process.stderr.write(`fuzz: ${line}\n`),
});
writeFileSync(values.out!, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(formatReport(report));
process.exit(report.violations.length + report.runViolations.length > 0 ? 1 : 0);
