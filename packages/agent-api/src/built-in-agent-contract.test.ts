import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readAgentV2Wasm, readAgentWasm } from '@shadebox/contracts';
import { base58Encode, sha256 } from '@shadebox/primitives';
import { BUILT_IN_AGENT_CONTRACT_CODE_HASHES } from './built-in-agent-contract.js';

describe('built-in agent contracts', () => {
  it("lists the code hash of the agent contract this repository builds (view_account's code_hash)", () => {
    const hash = base58Encode(sha256(readAgentWasm()));
    assert.ok(
      BUILT_IN_AGENT_CONTRACT_CODE_HASHES.has(hash),
      `packages/contracts/build/agent.wasm changed: add its code hash '${hash}' to BUILT_IN_AGENT_CONTRACT_CODE_HASHES in packages/agent-api/src/built-in-agent-contract.ts (keep the old ones), so the agent API keeps checking its request_signature arguments`,
    );
  });

  it('lists the code hash of the 2.0 agent contract this repository builds (agent-v2.wasm)', () => {
    const hash = base58Encode(sha256(readAgentV2Wasm()));
    assert.ok(
      BUILT_IN_AGENT_CONTRACT_CODE_HASHES.has(hash),
      `packages/contracts/build/agent-v2.wasm changed: add its code hash '${hash}' to BUILT_IN_AGENT_CONTRACT_CODE_HASHES in packages/agent-api/src/built-in-agent-contract.ts (keep the old ones)`,
    );
  });
});
