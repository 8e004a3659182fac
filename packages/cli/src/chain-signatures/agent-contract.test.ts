/** `--agent-contract-wasm` / `--agent-contract-init`: what is read and checked, every refusal a usage error. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentWasmPath, readAgentWasm } from '@shadebox/contracts';
import { UsageError } from '../usage-error.js';
import { agentContractFlags, DEFAULT_AGENT_INIT, parseInitArgs, resolveInitArgs } from './agent-contract.js';

const COMMAND = 'shadebox up';
const dir = mkdtempSync(join(tmpdir(), 'shadebox-agent-contract-'));

async function refused(run: () => Promise<unknown> | unknown, message: RegExp, flag: string): Promise<void> {
  try {
    await run();
  } catch (e) {
    assert.ok(e instanceof UsageError, String(e));
    assert.match(e.message, message);
    assert.equal(e.flag, flag);
    return;
  }
  assert.fail('expected a UsageError');
}

describe('agentContractFlags', () => {
  it('neither flag: the built-in contract', async () => {
    assert.equal(await agentContractFlags(COMMAND, {}, dir), undefined);
  });

  it('reads the file (relative to the working directory), its init method and flow, the default init', async () => {
    const source = await agentContractFlags(COMMAND, { wasm: agentWasmPath }, '/');
    assert.ok(source);
    assert.equal(source.file, agentWasmPath);
    assert.deepEqual(Buffer.from(source.wasm), readAgentWasm());
    assert.equal(source.initMethod, 'init');
    assert.equal(source.flow, 'codehash');
    assert.deepEqual(source.initArgs, JSON.parse(DEFAULT_AGENT_INIT));
    writeFileSync(join(dir, 'mine.wasm'), readAgentWasm());
    const relative = await agentContractFlags(COMMAND, { wasm: 'mine.wasm', init: '{"a":1}' }, dir);
    assert.equal(relative?.file, join(dir, 'mine.wasm'));
    assert.deepEqual(relative?.initArgs, { a: 1 });
  });

  it('refuses a missing file, a file that is not Wasm, and init without the contract', async () => {
    await refused(
      () => agentContractFlags(COMMAND, { wasm: 'missing.wasm' }, dir),
      /^cannot read --agent-contract-wasm .*missing\.wasm: no such file$/,
      '--agent-contract-wasm',
    );
    writeFileSync(join(dir, 'text.wasm'), 'hello');
    await refused(
      () => agentContractFlags(COMMAND, { wasm: 'text.wasm' }, dir),
      /text\.wasm is not a Wasm contract: not a Wasm module/,
      '--agent-contract-wasm',
    );
    await refused(
      () => agentContractFlags(COMMAND, { init: '{}' }, dir),
      /^--agent-contract-init needs --agent-contract-wasm$/,
      '--agent-contract-init',
    );
  });

  it('refuses a module with no init/new method or no register_agent', async () => {
    // The smallest module exporting one function named as given.
    const moduleExporting = (name: string) => {
      const n = [...new TextEncoder().encode(name)];
      const exports = [1, n.length, ...n, 0, 0];
      return Uint8Array.from([
        ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
        ...[1, 4, 1, 0x60, 0, 0],
        ...[3, 2, 1, 0],
        ...[7, exports.length, ...exports],
        ...[10, 4, 1, 2, 0, 0x0b],
      ]);
    };
    writeFileSync(join(dir, 'no-init.wasm'), moduleExporting('register_agent'));
    await refused(
      () => agentContractFlags(COMMAND, { wasm: 'no-init.wasm' }, dir),
      /no-init\.wasm has no init or new method$/,
      '--agent-contract-wasm',
    );
    writeFileSync(join(dir, 'not-agent.wasm'), moduleExporting('new'));
    await refused(
      () => agentContractFlags(COMMAND, { wasm: 'not-agent.wasm' }, dir),
      /not-agent\.wasm has no register_agent method, so agents cannot register with it$/,
      '--agent-contract-wasm',
    );
  });
});

describe('init arguments', () => {
  it('refuses what is not JSON, or not an object', async () => {
    await refused(
      () => parseInitArgs(COMMAND, '{owner_id: $OWNER}'),
      /^invalid value for --agent-contract-init: not JSON \(/,
      '--agent-contract-init',
    );
    for (const text of ['[]', '"x"', 'null', '3']) {
      await refused(
        () => parseInitArgs(COMMAND, text),
        /expected a JSON object of init arguments$/,
        '--agent-contract-init',
      );
    }
  });

  it('refuses an unknown placeholder, naming it and the known ones', async () => {
    await refused(
      () => parseInitArgs(COMMAND, '{"owner_id":"$OWNER","other":{"list":["$SIGNER_ID"]}}'),
      /^unknown placeholder \$SIGNER_ID in --agent-contract-init \(known: \$OWNER, \$MPC_CONTRACT_ID, \$AGENT_CONTRACT_ID; \$\$ for a \$\)$/,
      '--agent-contract-init',
    );
  });

  it('replaces placeholders in every string (nested, inside text), $$ as $, keys and other values untouched', () => {
    const args = parseInitArgs(
      COMMAND,
      '{"owner_id":"$OWNER","n":{"ids":["$MPC_CONTRACT_ID","self=$AGENT_CONTRACT_ID"]},"$OWNER":1,"price":"$$5 $5","tee":false}',
    );
    assert.deepEqual(
      resolveInitArgs(args, {
        OWNER: 'test.near',
        MPC_CONTRACT_ID: 'v1.signer',
        AGENT_CONTRACT_ID: 'agent.test.near',
      }),
      {
        owner_id: 'test.near',
        n: { ids: ['v1.signer', 'self=agent.test.near'] },
        $OWNER: 1,
        price: '$5 $5',
        tee: false,
      },
    );
  });
});
