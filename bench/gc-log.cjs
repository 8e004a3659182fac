/**
 * The garbage collections of a running process, per thread, for reading pauses.
 *
 * Loaded into a process with `NODE_OPTIONS="--require /abs/path/bench/gc-log.cjs"` (every Node process the
 * command starts inherits it, the soak's stack included), it appends one line per collection to
 * `$GC_LOG_DIR/gclog-<pid>-<thread>.txt` (default /tmp): the start in ms, perf_hooks' kind (1 minor, 4 major,
 * 8 incremental, 16 weak callbacks), its flags (4: forced, as the heap trim's `gc()`) and the duration in ms.
 * Run as a script, it summarizes such files:
 *
 *   node bench/gc-log.cjs /tmp/gclog-<pid>-main.txt
 */
const { appendFileSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

if (require.main === module) summarize(process.argv.slice(2));
else record();

function record() {
  const { PerformanceObserver } = require('node:perf_hooks');
  const { isMainThread, threadId } = require('node:worker_threads');
  const file = join(
    process.env.GC_LOG_DIR ?? '/tmp',
    `gclog-${process.pid}-${isMainThread ? 'main' : `w${threadId}`}.txt`,
  );
  let lines = [];
  const flush = () => {
    if (lines.length === 0) return;
    appendFileSync(file, `${lines.join('\n')}\n`);
    lines = [];
  };
  const take = (entries) => {
    for (const e of entries)
      lines.push(`${e.startTime.toFixed(0)} ${e.detail.kind} ${e.detail.flags} ${e.duration.toFixed(2)}`);
  };
  const observer = new PerformanceObserver((list) => {
    take(list.getEntries());
    if (lines.length >= 50) flush();
  });
  observer.observe({ entryTypes: ['gc'] });
  setInterval(flush, 5000).unref();
  // Entries not yet delivered to the callback when the thread exits.
  process.on('exit', () => {
    take(observer.takeRecords());
    flush();
  });
}

function summarize(files) {
  if (files.length === 0) {
    console.error('usage: node bench/gc-log.cjs FILE…');
    process.exit(2);
  }
  for (const file of files) {
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ').map(Number));
    const spanS = (rows.at(-1)[0] - rows[0][0]) / 1000;
    console.log(`${file}: ${rows.length} collections in ${spanS.toFixed(0)} s`);
    const groups = new Map();
    for (const [, kind, flags, ms] of rows) {
      const key = `kind ${kind} flags ${flags}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(ms);
    }
    for (const [key, list] of [...groups].sort()) {
      list.sort((a, b) => a - b);
      const total = list.reduce((a, b) => a + b, 0);
      const at = (q) => list[Math.min(list.length - 1, Math.floor(q * list.length))].toFixed(1);
      console.log(
        `  ${key}: ${list.length}, median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms, ${total.toFixed(0)} ms in all`,
      );
    }
  }
}
