import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino } from 'pino';
import { lazyLogger } from './logger.js';

function counted(level: string) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  let made = 0;
  const log = lazyLogger(level, () => {
    made++;
    return pino({ level, base: undefined }, stream);
  });
  return { log, lines, made: () => made };
}

test('a lazy logger makes its pino logger on the first call at an enabled level, once', async () => {
  const { log, lines, made } = counted('warn');
  log.trace('t');
  log.debug({ a: 1 }, 'd');
  log.info('i');
  assert.equal(log.level, 'warn');
  assert.equal(made(), 0, 'nothing at or above warn was logged');
  log.warn({ x: 1 }, 'careful');
  log.error('broken');
  log.info('still skipped');
  assert.equal(made(), 1);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    lines.map((l) => [JSON.parse(l).msg, JSON.parse(l).level]),
    [
      ['careful', 40],
      ['broken', 50],
    ],
  );
  assert.equal(JSON.parse(lines[0]).x, 1);
});

test('silent never makes one; other uses make it; a level change is followed', () => {
  const silent = counted('silent');
  silent.log.fatal('x');
  silent.log.error('y');
  assert.equal(silent.made(), 0);
  const other = counted('info');
  assert.equal(other.log.isLevelEnabled('debug'), false);
  assert.equal(other.made(), 1);
  other.log.level = 'debug';
  assert.equal(other.log.level, 'debug');
  assert.equal(other.log.isLevelEnabled('debug'), true);
});

test('an unknown level fails at once, as pino does', () => {
  assert.throws(() => lazyLogger('loud', () => pino({ level: 'loud' })), /loud/);
});
