/**
 * The local dstack through real processes: `shadebox dstack` serves the simulated guest agent on its socket
 * (the agent API's dstack provider gets a quote bound to the account and the compose file's hash), refuses a
 * socket in use and stops on SIGTERM; `shadebox up --tee dstack` registers its agent in the built-in v1
 * contract with a simulated quote, with the compose file it writes or one it is given.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { dstackProvider } from '../../agent-api/src/tee/dstack.js';
import { CliProcess, runCli, tempDir } from '../test-support/cli-process.js';
import { appComposeOf } from './dstack/app-compose.js';
import { replayRtmr } from './dstack/event-log.js';
import { EXAMPLE_APP_IMAGE_DIGEST } from './dstack/stack-tee.js';
import { decodeTdxQuote } from './dstack/tdx-quote.js';
import { LOCAL_AGENT_CODEHASH } from './stack-services.js';

type Json = ReturnType<typeof JSON.parse>;
const API = 'a1'.repeat(32);
const APP = 'b2'.repeat(32);
const COMPOSE = `services:
  shade-agent-api:
    #shade-agent-api-image
    image: shadebox-agent-api@sha256:${API}
  shade-agent-app:
    #shade-agent-app-image
    image: example/app@sha256:${APP}
`;

const processes: CliProcess[] = [];
after(async () => {
  for (const p of processes) await p.stop('SIGTERM');
});

function start(args: string[], cwd?: string): CliProcess {
  const p = new CliProcess(args, { cwd });
  processes.push(p);
  return p;
}

async function view(agentApiUrl: string, methodName: string, args: unknown): Promise<Json> {
  const r = await fetch(`${agentApiUrl}/view`, {
    method: 'POST',
    body: JSON.stringify({ methodName, args }),
  });
  return r.json();
}

describe('shadebox dstack', () => {
  it('serves quotes over the socket, refuses a socket in use, stops on SIGTERM', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'docker-compose.yaml'), COMPOSE);
    const mrtd = 'ee'.repeat(48);
    const ppid = '5a'.repeat(16);
    const args = ['dstack', '--socket', 'dstack.sock', '--compose', 'docker-compose.yaml', '--json'];
    const sim = start(
      [...args, '--mrtd', mrtd, '--ppid', ppid, '--key-provider', '{"name":"kms","id":"01"}'],
      dir,
    );
    const ready = JSON.parse(await sim.firstLine());
    const socket = join(dir, 'dstack.sock');
    assert.deepEqual(ready, {
      event: 'ready',
      dstackSocket: socket,
      composeHash: appComposeOf(COMPOSE).composeHash,
      appId: appComposeOf(COMPOSE).composeHash.slice(0, 40),
      simulated: true,
    });

    const account = 'f0'.repeat(32);
    const reg = await dstackProvider(socket).registrationArgs(account, undefined);
    const quote = decodeTdxQuote(Buffer.from(String(reg.quote_hex), 'hex'));
    assert.equal(quote.simulated, true);
    assert.equal(quote.reportData.toString(), account);
    assert.equal(quote.mrtd.toString('hex'), mrtd);
    assert.equal(quote.ppid?.toString('hex'), ppid);
    const tcb = JSON.parse(String(reg.tcb_info));
    assert.deepEqual(replayRtmr(tcb.event_log, 3), quote.rtmr3);
    const keyProvider = tcb.event_log.find((e: Json) => e.event === 'key-provider');
    assert.equal(Buffer.from(keyProvider.event_payload, 'hex').toString(), '{"name":"kms","id":"01"}');

    const second = await runCli([...args], { cwd: dir });
    assert.equal(second.code, 1);
    assert.match(second.stderr, /dstack\.sock is in use by another process/);

    const exit = await sim.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
  });
});

describe('shadebox up --tee dstack', () => {
  it('registers the agent with a simulated quote over the compose file it writes', async () => {
    const up = start([
      'up',
      '--memory',
      '--rpc-port',
      '0',
      '--agent-port',
      '0',
      '--no-evm',
      '--tee',
      'dstack',
      '--json',
    ]);
    const ready = JSON.parse(await up.firstLine());
    assert.equal(ready.tee.mode, 'dstack');
    assert.equal(ready.tee.simulated, true);
    assert.equal(ready.tee.apiImage, LOCAL_AGENT_CODEHASH);
    assert.equal(ready.tee.appImage, EXAMPLE_APP_IMAGE_DIGEST);
    assert.ok(existsSync(ready.tee.composeFile));
    await up.stdoutIncludes('"agent-ready"');
    const { agentAccountId } = JSON.parse(up.stdout.split('\n')[1]!);
    const record = await view(ready.agentApiUrl, 'get_agent', { account_id: agentAccountId });
    assert.equal(record.codehash, EXAMPLE_APP_IMAGE_DIGEST);
    // The stored checksum is of a quote from the stack's simulator over the agent account.
    const again = await dstackProvider(ready.tee.socket).registrationArgs(agentAccountId, undefined);
    assert.equal(record.checksum, again.checksum);
    assert.equal(
      record.checksum,
      createHash('sha256')
        .update(Buffer.from(String(again.quote_hex), 'hex'))
        .digest('hex'),
    );
    const approved = await view(ready.agentApiUrl, 'get_approved_codehashes', {});
    assert.ok(approved.includes(LOCAL_AGENT_CODEHASH) && approved.includes(EXAMPLE_APP_IMAGE_DIGEST));
    const exit = await up.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
    assert.ok(!existsSync(ready.tee.socket), 'the socket is removed');
  });

  it('measures the --dstack-compose FILE given, on the --dstack-socket given; the summary says simulated', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'compose.yaml'), COMPOSE);
    const up = start(
      [
        'up',
        '--memory',
        '--rpc-port',
        '0',
        '--agent-port',
        '0',
        '--no-evm',
        '--tee',
        'dstack',
        '--dstack-compose',
        'compose.yaml',
        '--dstack-socket',
        'guest.sock',
      ],
      dir,
    );
    await up.stdoutIncludes('registered in');
    assert.match(up.stdout, /TEE\s+dstack, SIMULATED/);
    assert.match(up.stdout, new RegExp(`Compose hash\\s+${appComposeOf(COMPOSE).composeHash}`));
    assert.ok(up.stdout.includes(join(dir, 'guest.sock')));
    const agentApiUrl = /Agent API\s+(\S+)/.exec(up.stdout)![1];
    const agentAccountId = /Agent account (\S+) registered/.exec(up.stdout)![1];
    const record = await view(agentApiUrl, 'get_agent', { account_id: agentAccountId });
    assert.equal(record.codehash, APP);
    const exit = await up.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
  });
});
