import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverEnvironment } from '../bench/report.js';

test("the report names the SHADEBOX_* variables the servers inherit, not the benchmark's own", () => {
  assert.deepEqual(
    serverEnvironment({
      SHADEBOX_VIEW_SPIN_US: '0',
      SHADEBOX_BENCH_SIGNER_WASM: '/tmp/signer.wasm',
      SHADEBOX_FROM_SOURCE: '1',
      SHADEBOX_LOG: 'warn',
      PATH: '/usr/bin',
    }),
    ['SHADEBOX_LOG=warn', 'SHADEBOX_VIEW_SPIN_US=0'],
  );
  assert.deepEqual(serverEnvironment({ HOME: '/root' }), []);
});
