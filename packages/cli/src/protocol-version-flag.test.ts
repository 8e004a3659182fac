import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { protocolVersionFlag } from './protocol-version-flag.js';
import { UsageError } from './usage-error.js';

describe('--protocol-version', () => {
  it('takes every version the node runs, 83 to 87', async () => {
    for (const version of [83, 84, 85, 86, 87]) {
      assert.equal(await protocolVersionFlag('shadebox node', String(version)), version);
    }
  });

  it("refuses another version with the node's UnsupportedProtocolVersionError message", async () => {
    for (const value of ['82', '88', '0', '129']) {
      await assert.rejects(
        protocolVersionFlag('shadebox node', value),
        (error: unknown) =>
          error instanceof UsageError &&
          error.flag === '--protocol-version' &&
          error.line ===
            `shadebox node: error: invalid value '${value}' for --protocol-version: protocol version ${value} ` +
              `is not supported: this node runs protocol versions 83 to 87 (see 'shadebox node --help')`,
      );
    }
  });

  it('refuses what is not a whole number', async () => {
    for (const value of ['', 'latest', '86.5', '-86', '1e2', '99999999999']) {
      await assert.rejects(
        protocolVersionFlag('near-sandbox', value),
        (error: unknown) =>
          error instanceof UsageError &&
          error.message === `invalid value '${value}' for --protocol-version: expected a whole number`,
      );
    }
  });
});
