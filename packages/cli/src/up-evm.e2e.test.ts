/**
 * `shadebox up`'s local EVM chain (anvil) through real processes: the ready line names it, its chain id is the
 * one asked for, the agent's derived addresses (ethereum-1 and --evm-fund-path) hold 100 ETH there, as the
 * signer contract's own `derived_public_key` view derives them (converted to addresses by viem); the summary's
 * rows; --no-evm; --evm without anvil; a port in use; and no anvil left after SIGINT, SIGTERM or a SIGKILL of
 * up (its process and its temporary home gone, its port closed); in text mode, a transaction signed through the
 * agent API and broadcast on that anvil gets the transaction log's `evm 0x… carries the signature for request …`
 * line on stderr. Processes are found through /proc (Linux).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createAgentClient, toEvmSignature } from '@shadebox/client';
import { RpcClient, viewFunction } from '@shadebox/near-client';
import { base58Decode } from '@shadebox/primitives';
import {
  createPublicClient,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseGwei,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';
import { bytesToHex, publicKeyToAddress } from 'viem/utils';
import { CliProcess, runCli, tempDir } from '../test-support/cli-process.js';
import type { ReadyEvent } from './print-ready.js';

type EvmReady = ReadyEvent & {
  agentAddresses: { predecessor: string; evm: { path: string; address: string } };
  mpcContractId: string;
  evm: { rpcUrl: string; chainId: number; funded: Array<{ path: string; address: string }> } | null;
};

const HUNDRED_ETH = 100n * 10n ** 18n;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const linux = process.platform === 'linux';

async function startUp(args: string[], options: { bin?: boolean; env?: Record<string, string> } = {}) {
  const cli = new CliProcess(
    ['up', '--memory', '--rpc-port', '0', '--agent-port', '0', ...args, '--json'],
    options,
  );
  return { cli, ready: JSON.parse(await cli.firstLine()) as EvmReady };
}

async function evm<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result: T; error?: { message: string } };
  assert.equal(body.error, undefined, JSON.stringify(body.error));
  return body.result;
}

/** The address the signer contract derives for the agent contract and `path`, turned into one by viem. */
async function contractDerivedAddress(ready: EvmReady, path: string): Promise<string> {
  const rpc = new RpcClient([ready.rpcUrl], 10_000);
  const key = (await viewFunction(rpc, ready.mpcContractId, 'derived_public_key', {
    path,
    predecessor: ready.agentAddresses.predecessor,
    domain_id: 0,
  })) as string;
  const xy = base58Decode(key.slice('secp256k1:'.length));
  return publicKeyToAddress(bytesToHex(Uint8Array.from([4, ...xy])));
}

// --- processes, through /proc ---

function procStat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0]!, ppid: Number(rest[1]) };
  } catch {
    return undefined;
  }
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((child) => procStat(child)?.ppid === pid);
}

/** up's anvil: the child of its guard (sh), with the temporary HOME anvil runs in. */
function anvilOf(upPid: number): { pid: number; home: string } | undefined {
  for (const guard of childrenOf(upPid)) {
    if (!cmdline(guard).includes('shadebox-evm-guard')) continue;
    for (const pid of childrenOf(guard)) {
      if (!cmdline(pid)[0]?.endsWith('anvil')) continue;
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const home = environ.find((entry) => entry.startsWith('HOME='))!.slice('HOME='.length);
      return { pid, home };
    }
  }
  return undefined;
}

/** Gone, or a zombie (exited, not reaped yet). */
function gone(pid: number): boolean {
  const stat = procStat(pid);
  return stat === undefined || stat.state === 'Z';
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(5_000) });
    return false;
  } catch {
    return true;
  }
}

/** Polls until `check` holds; fails after a generous bound instead of hanging. */
async function eventually(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`still not true after 30 s: ${what}`);
}

async function assertAnvilGone(anvil: { pid: number; home: string }, rpcUrl: string): Promise<void> {
  await eventually(`anvil ${anvil.pid} stopped`, () => gone(anvil.pid));
  await eventually(`its home ${anvil.home} deleted`, () => !existsSync(anvil.home));
  assert.ok(await refused(rpcUrl), `${rpcUrl} still answers`);
}

describe('shadebox up: the local EVM chain', () => {
  it('--evm --json: named in the ready line, its chain id, the derived addresses funded; SIGTERM stops anvil', async () => {
    const { cli, ready } = await startUp(['--evm', '--evm-chain-id', '1337', '--evm-fund-path', 'oracle-1']);
    assert.ok(ready.evm, 'evm in the ready line');
    assert.match(ready.evm.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(ready.evm.rpcUrl).port, '8545', 'a free port with --rpc-port 0');
    assert.equal(ready.evm.chainId, 1337);
    assert.equal(await evm<string>(ready.evm.rpcUrl, 'eth_chainId'), '0x539');

    assert.deepEqual(
      ready.evm.funded.map((f) => f.path),
      ['ethereum-1', 'oracle-1'],
    );
    assert.deepEqual(ready.evm.funded[0], ready.agentAddresses.evm);
    for (const { path, address } of ready.evm.funded) {
      assert.equal(
        address,
        await contractDerivedAddress(ready, path),
        `the signer's own derivation of ${path}`,
      );
      assert.equal(
        BigInt(await evm<string>(ready.evm.rpcUrl, 'eth_getBalance', [address, 'latest'])),
        HUNDRED_ETH,
      );
    }

    const anvil = linux ? anvilOf(cli.child.pid!) : undefined;
    if (linux) assert.ok(anvil, 'anvil runs under up');
    // The agent registers after the ready line; stop only once it has said so.
    await cli.stdoutIncludes('"agent-ready"');
    const exit = await cli.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(exit.stdout.split('\n').length, 3, 'the ready and agent-ready lines, nothing else');
    if (anvil) await assertAnvilGone(anvil, ready.evm.rpcUrl);
    else assert.ok(await refused(ready.evm.rpcUrl));
  });

  it('by default through the shadebox bin (the bundle): the summary rows; SIGINT stops anvil', async () => {
    const cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0'], { bin: true });
    await cli.stdoutIncludes('Press Ctrl+C to stop.');
    const rpcUrl = /^ {2}EVM RPC\s+(http:\/\/127\.0\.0\.1:\d+) {2}\(anvil\)$/m.exec(cli.stdout)?.[1];
    assert.ok(rpcUrl, cli.stdout);
    assert.match(cli.stdout, /^ {2}EVM chain id\s+31337$/m);
    const address = /^ {2}EVM address\s+(0x[0-9a-fA-F]{40}) {2}\(path ethereum-1\)$/m.exec(cli.stdout)![1];
    assert.match(
      cli.stdout,
      new RegExp(`^ {2}EVM funded\\s+${address} {2}100 ETH {2}\\(path ethereum-1\\)$`, 'm'),
    );
    assert.equal(BigInt(await evm<string>(rpcUrl, 'eth_getBalance', [address, 'latest'])), HUNDRED_ETH);
    assert.ok(
      !/Listening on|eth_getBalance|Available Accounts/.test(cli.stdout + cli.stderr),
      "anvil's log stays out",
    );

    const anvil = linux ? anvilOf(cli.child.pid!) : undefined;
    const exit = await cli.stop('SIGINT');
    assert.equal(exit.code, 0, exit.stderr);
    if (anvil) await assertAnvilGone(anvil, rpcUrl);
    else assert.ok(await refused(rpcUrl));
  });

  it('text mode with --evm: a transfer signed through the agent API and broadcast on anvil gets its "evm" line', async () => {
    const cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--evm'], {
      env: { NO_COLOR: '1' },
    });
    await cli.stdoutIncludes('Press Ctrl+C to stop.');
    const row = (name: string, value: string) =>
      new RegExp(`^ {2}${name}\\s+(${value})`, 'm').exec(cli.stdout)?.[1];
    const rpcUrl = row('EVM RPC', 'http://127\\.0\\.0\\.1:\\d+');
    const agentApiUrl = row('Agent API', 'http://\\S+');
    const address = row('EVM address', '0x[0-9a-fA-F]{40}');
    assert.ok(rpcUrl && agentApiUrl && address, cli.stdout);
    await cli.stdoutIncludes(' registered in agent.test.near');

    // An EIP-1559 transfer from the agent's derived address (funded by up), signed as an agent signs it.
    const tx: TransactionSerializableEIP1559 = {
      type: 'eip1559',
      chainId: Number(BigInt(await evm<string>(rpcUrl, 'eth_chainId'))),
      nonce: 0,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1000n,
      gas: 21_000n,
      maxFeePerGas: parseGwei('10'),
      maxPriorityFeePerGas: parseGwei('1'),
    };
    const agent = createAgentClient({ baseUrl: agentApiUrl });
    const signature = await agent.requestSignature({
      path: 'ethereum-1',
      payload: keccak256(serializeTransaction(tx)),
    });
    const signed = serializeTransaction(tx, toEvmSignature(signature));
    const txHash = await evm<Hex>(rpcUrl, 'eth_sendRawTransaction', [signed]);
    const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 });
    const receipt = await client.waitForTransactionReceipt({ hash: txHash });
    assert.equal(receipt.status, 'success');
    assert.equal(getAddress(receipt.from), getAddress(address), 'mined from the derived address');

    const line = `evm  ${txHash} in block ${receipt.blockNumber} carries the signature for request `;
    await cli.stderrIncludes(line);
    assert.match(
      cli.stderr,
      new RegExp(
        `^${escapeRegExp(line)}[1-9A-HJ-NP-Za-km-z]{43,44} \\(agent\\.test\\.near, path "ethereum-1"\\) — success$`,
        'm',
      ),
    );
    const exit = await cli.stop('SIGINT');
    assert.equal(exit.code, 0, exit.stderr);
  });

  it('SIGKILL of up: anvil stops all the same, and its home is deleted', {
    skip: !linux && 'needs /proc',
  }, async () => {
    const { cli, ready } = await startUp([]);
    assert.ok(ready.evm);
    const anvil = anvilOf(cli.child.pid!);
    assert.ok(anvil, 'anvil runs under up');
    assert.ok(existsSync(anvil.home));
    const exit = await cli.stop('SIGKILL');
    assert.equal(exit.signal, 'SIGKILL');
    await assertAnvilGone(anvil, ready.evm.rpcUrl);
  });

  it('--no-evm: "evm": null and no anvil', async () => {
    const { cli, ready } = await startUp(['--no-evm']);
    assert.equal(ready.evm, null);
    if (linux) assert.equal(anvilOf(cli.child.pid!), undefined);
    assert.equal((await cli.stop()).code, 0);
  });

  it('--evm without anvil: exit 1 and one line saying what is missing, before anything starts', async () => {
    const missing = join(await tempDir(), 'no-such-anvil');
    const { code, stdout, stderr } = await runCli(
      ['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--evm', '--json'],
      { env: { ANVIL_BIN: missing } },
    );
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(
      stderr,
      new RegExp(
        `^shadebox up: error: --evm: ANVIL_BIN is ${escapeRegExp(missing)}, which is not an executable file; point ANVIL_BIN at an anvil binary, or unset it to use @foundry-rs/anvil-[\\w-]+\\n$`,
      ),
    );
  });

  it('without anvil and without --evm: up runs, and the summary says why the EVM chain is not started', async () => {
    const missing = join(await tempDir(), 'no-such-anvil');
    const cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0'], {
      env: { ANVIL_BIN: missing },
    });
    await cli.stdoutIncludes('Press Ctrl+C to stop.');
    assert.match(
      cli.stdout,
      new RegExp(
        `^ {2}EVM chain\\s+\\(not started: ANVIL_BIN is ${escapeRegExp(missing)}, which is not an executable file; `,
        'm',
      ),
    );
    assert.doesNotMatch(cli.stdout, /EVM RPC/);
    if (linux) assert.equal(anvilOf(cli.child.pid!), undefined);
    assert.equal((await cli.stop('SIGINT')).code, 0);
  });

  it('--evm-port in use: exit 1 with a clear line, and nothing left running', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const cli = new CliProcess([
        'up',
        '--memory',
        '--rpc-port',
        '0',
        '--agent-port',
        '0',
        '--evm-port',
        String(port),
        '--json',
      ]);
      const exit = await cli.exit();
      assert.equal(exit.code, 1);
      assert.equal(exit.stdout, '');
      assert.match(
        exit.stderr,
        new RegExp(
          `^shadebox up: error: cannot listen on 127\\.0\\.0\\.1:${port} for the EVM chain \\(anvil\\): the address is already in use \\(pick another port with --evm-port, 0 for a free one, or run without it: --no-evm\\)$`,
          'm',
        ),
      );
    } finally {
      blocker.close();
    }
  });
});
