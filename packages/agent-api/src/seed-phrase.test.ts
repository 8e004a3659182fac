import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSeedPhrase } from 'near-seed-phrase';
import { loadAgentApiConfig } from './config.js';
import { keyPairFromSeedPhrase } from './seed-phrase.js';

const PHRASE = 'shoot island position soft burden budget tooth cruel issue economy destroy above';

describe('seed phrases', () => {
  it("derive the same key as near-seed-phrase (m/44'/397'/0')", () => {
    const expected = parseSeedPhrase(PHRASE);
    const key = keyPairFromSeedPhrase(`  ${PHRASE.toUpperCase().replaceAll(' ', '   ')} `);
    assert.equal(key.publicKeyString, expected.publicKey);
    assert.equal(key.toString(), expected.secretKey);
  });

  it('are accepted in NEAR_SEED_PHRASE', () => {
    const c = loadAgentApiConfig(
      {
        NEAR_ACCOUNT_ID: 'test.near',
        NEAR_SEED_PHRASE: PHRASE,
        AGENT_CONTRACT_ID: 'agent.test.near',
        NEAR_RPC_URL: 'http://127.0.0.1:3030',
        AGENT_CODEHASH: 'a'.repeat(64),
        TEE_MODE: 'local',
      },
      {},
    );
    assert.equal(c.fundingKey?.publicKeyString, parseSeedPhrase(PHRASE).publicKey);
  });
});
