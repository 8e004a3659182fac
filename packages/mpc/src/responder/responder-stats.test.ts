import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latencySummary, newResponderStats, recordAnswer } from './responder-stats.js';

test('recordAnswer counts answers and keeps the last 1000 latencies', () => {
  const stats = newResponderStats();
  for (let i = 1; i <= 1005; i++) recordAnswer(stats, i);
  assert.equal(stats.responded, 1005);
  assert.equal(stats.lastLatencyMs, 1005);
  assert.equal(stats.latenciesMs.length, 1000);
  assert.equal(stats.latenciesMs[0], 6);
});

test('latencySummary: percentiles and mean, zeros when empty', () => {
  assert.deepEqual(latencySummary({ latenciesMs: [] }), {
    count: 0,
    min: 0,
    mean: 0,
    p50: 0,
    p95: 0,
    max: 0,
  });
  const latenciesMs = Array.from({ length: 20 }, (_, i) => 20 - i);
  assert.deepEqual(latencySummary({ latenciesMs }), {
    count: 20,
    min: 1,
    mean: 10.5,
    p50: 11,
    p95: 20,
    max: 20,
  });
});
