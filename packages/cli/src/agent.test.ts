/** `shadebox agent` in process: a missing setting stops it at start, naming the setting, before it listens. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCliInProcess as runCli } from '../test-support/cli-in-process.js';

describe('shadebox agent', () => {
  it('a missing setting: exit 1 naming it', async () => {
    const exit = await runCli(['agent'], {
      env: { CHAIN_ACCOUNT_ID: undefined, NEAR_ACCOUNT_ID: undefined, AGENT_CONTRACT_ID: undefined },
    });
    assert.equal(exit.code, 1, exit.stderr);
    assert.match(exit.stderr, /^shadebox agent: error: .*CHAIN_ACCOUNT_ID/m);
  });
});
