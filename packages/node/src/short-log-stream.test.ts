import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatShortLine, shortLogStream } from './short-log-stream.js';

describe('short log lines', () => {
  it('time, level, message and fields; an error by its message', () => {
    const time = Date.UTC(2026, 0, 2, 3, 4, 5);
    assert.equal(
      formatShortLine({ level: 40, time, name: 'shadebox', msg: 'slow', height: 12, who: 'a b' }),
      '03:04:05 WARN slow height=12 who="a b"',
    );
    assert.equal(
      formatShortLine({ level: 50, time, msg: 'failed', err: { message: 'boom', stack: 'at x' } }),
      '03:04:05 ERROR failed err="boom"',
    );
  });

  it('a stream that writes one short line per JSON line', () => {
    const written: string[] = [];
    const stream = shortLogStream({ write: (text: string) => written.push(text) });
    stream.write(`${JSON.stringify({ level: 30, time: 0, msg: 'hello' })}\n`);
    assert.deepEqual(written, ['00:00:00 INFO hello\n']);
  });
});
