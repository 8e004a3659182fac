/** `shadebox up` checks the agent API's variables before it starts anything (in process, nothing spawned). */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliInProcess as runCli, tempDir } from '../test-support/cli-in-process.js';

describe('shadebox up: agent variables', () => {
  for (const [name, value] of [
    ['AGENT_FUNDING_AMOUNT', 'lots'],
    ['AGENT_KEY_POOL_SIZE', '65'],
    ['AGENT_API_PORT', 'x'],
    ['AGENT_API_CORS_ORIGIN', 'not an origin'],
  ] as const) {
    it(`refuses an invalid ${name} (exit 1, the variable named) before starting the node`, async () => {
      const cwd = await tempDir();
      const { code, stdout, stderr } = await runCli(['up', '--rpc-port', '0'], {
        cwd,
        env: { [name]: value },
      });
      assert.equal(code, 1, stderr);
      assert.equal(stdout, '');
      assert.match(stderr, new RegExp(`^shadebox up: error: ${name}: `));
      assert.equal(stderr.trim().split('\n').length, 1);
      assert.ok(!existsSync(join(cwd, '.shadebox')), 'no home was created');
    });
  }
});
