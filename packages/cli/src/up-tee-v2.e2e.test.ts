/**
 * `shadebox up --tee dstack --agent-contract v2` through real processes: the built-in 2.0 agent contract made
 * with requires_tee true, the local dstack's simulated TD (its measurements and PPID, named in the ready line)
 * approved by the owner; the agent API in dstack mode registers with the 2.0 attestation it builds from the
 * local dstack (no whitelist), valid with those measurements and that PPID; a signature through the agent API
 * recovers to the address derived for the agent contract.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { RpcClient, viewFunction } from '@shadebox/near-client';
import { CliProcess } from '../test-support/cli-process.js';
import { assertSignatureRecoversToDerived } from '../test-support/signature-recovery.js';

describe('shadebox up --tee dstack --agent-contract v2', () => {
  let cli: CliProcess;
  // biome-ignore lint/suspicious/noExplicitAny: the ready line's JSON.
  let ready: any;
  let rpc: RpcClient;
  let agentAccountId: string;
  const view = (method: string, args: unknown = {}) => viewFunction(rpc, ready.agentContractId, method, args);

  before(async () => {
    cli = new CliProcess([
      'up',
      '--memory',
      '--rpc-port',
      '0',
      '--agent-port',
      '0',
      '--no-evm',
      '--tee',
      'dstack',
      '--agent-contract',
      'v2',
      '--json',
    ]);
    ready = JSON.parse(await cli.firstLine());
    rpc = new RpcClient([ready.rpcUrl], 30_000);
    await cli.stdoutIncludes('"agent-ready"');
    agentAccountId = JSON.parse(cli.stdout.split('\n')[1]!).agentAccountId;
  });

  after(async () => {
    await cli?.stop();
  });

  it('makes the contract with requires_tee and approves the simulated TD', async () => {
    assert.equal(ready.tee.mode, 'dstack');
    assert.equal(ready.tee.simulated, true);
    assert.ok(existsSync(ready.tee.composeFile));
    assert.equal(ready.tee.measurements.app_compose_hash_payload, ready.tee.composeHash);
    assert.match(ready.tee.ppid, /^[0-9a-f]{32}$/);
    assert.deepEqual(await view('get_contract_info'), {
      requires_tee: true,
      attestation_expiration_time_ms: '604800000',
      owner_id: ready.agentContractOwner,
      mpc_contract_id: ready.mpcContractId,
    });
    assert.deepEqual(await view('get_approved_measurements'), [ready.tee.measurements]);
    assert.deepEqual(await view('get_approved_ppids'), [ready.tee.ppid]);
  });

  it('the agent API registers with the local dstack attestation: valid, with the TD measurements and PPID', async () => {
    assert.match(agentAccountId, /^[0-9a-f]{64}$/);
    const agent = (await view('get_agent', { account_id: agentAccountId })) as {
      validity: unknown;
      measurements: unknown;
      ppid: string;
    };
    assert.equal(agent.validity, 'Valid');
    assert.deepEqual(agent.measurements, ready.tee.measurements);
    assert.equal(agent.ppid, ready.tee.ppid);
  });

  it('a signature through the agent API recovers to the address derived for the agent contract', async () => {
    await assertSignatureRecoversToDerived(ready, `0x${'7a'.repeat(32)}`);
  });
});
