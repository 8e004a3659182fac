import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { protocolVersionFor, TESTNET_PROTOCOL_VERSION } from './chain-id-flag.js';

describe('the protocol version of a new chain', () => {
  it("a testnet twin runs testnet's version (87) unless --protocol-version names another", () => {
    assert.equal(TESTNET_PROTOCOL_VERSION, 87);
    assert.equal(protocolVersionFor('testnet', undefined), 87);
    assert.equal(protocolVersionFor('testnet', 86), 86);
  });

  it("every other chain id takes the flag, or leaves the node's default (mainnet's)", () => {
    for (const chainId of [undefined, 'localnet', 'mainnet', 'my-chain']) {
      assert.equal(protocolVersionFor(chainId, undefined), undefined, String(chainId));
      assert.equal(protocolVersionFor(chainId, 87), 87, String(chainId));
    }
  });
});
