import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpDate } from './http-date.js';

test('httpDate gives what toUTCString gives, for instants across the years 1970-9999', () => {
  const instants = [0, 951_782_400_000, 1_709_164_800_999, 1_795_523_858_372, 253_402_300_799_000];
  for (let i = 1; i <= 300; i++) instants.push((i * 1_234_567_891_237) % 253_402_300_800_000);
  for (const ms of instants) assert.equal(httpDate(ms), new Date(ms).toUTCString(), String(ms));
  // Within one second the text is the same; the next second gives the next one.
  assert.equal(httpDate(1_000_999), httpDate(1_000_000));
  assert.equal(httpDate(1_001_000), new Date(1_001_000).toUTCString());
});
