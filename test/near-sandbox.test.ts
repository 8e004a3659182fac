/**
 * The `near-sandbox` executable as the ecosystem's harnesses start it (docs/near-sandbox.md): exactly the
 * command lines, file edits and signals of near-sandbox-js 0.3 (near-api-js's sandbox) and near-kit 0.19,
 * against the real executable (packages/cli/bin/near-sandbox.js) in child processes.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from './support/free-port.js';

const BIN = fileURLToPath(new URL('../packages/cli/bin/near-sandbox.js', import.meta.url));
/** Starting from source compiles it with tsx first: generous, but bounded. */
const START_TIMEOUT_MS = 60_000;
/** near-sandbox-js's default account and key (src/sandbox/config.ts), appended to genesis as it does. */
const SANDBOX_ACCOUNT = {
  accountId: 'sandbox',
  publicKey: 'ed25519:5BGSaf6YjVm7565VzWQHNxoyEjwr3jUpRJSGjREvU9dB',
  balance: 10_000n * 10n ** 24n,
};

/** The smallest Wasm module (magic and version), as a contract's code. */
const WASM_MODULE = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]).toString('base64');

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

const children = new Set<ChildProcess>();
const dirs: string[] = [];
after(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'near-sandbox-test-'));
  dirs.push(dir);
  return dir;
}

/** Children run the sources (SHADEBOX_FROM_SOURCE=1) unless `built`: then what `npm install` made (the
 * bundle when it is fresh, else dist/), run by its path as the harnesses run node_modules/.bin/near-sandbox. */
function start(args: string[], built = false, extraEnv: NodeJS.ProcessEnv = {}): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SHADEBOX_FROM_SOURCE: built ? undefined : '1',
    ...extraEnv,
  };
  if (built) delete env.SHADEBOX_FROM_SOURCE;
  delete env.SHADEBOX_LOG;
  delete env.NODE_OPTIONS;
  const [file, argv] = built ? [BIN, args] : [process.execPath, [BIN, ...args]];
  const child = spawn(file, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function exitOf(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no exit within ${START_TIMEOUT_MS} ms: ${stderr}`)),
      START_TIMEOUT_MS,
    );
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const run = (args: string[]) => exitOf(start(args));

/** Polls `GET /status` as near-sandbox-js's waitUntilReady does, until it answers 200. */
async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`near-sandbox exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never answered GET /status`);
}

async function rpc(url: string, method: string, params: unknown): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'dontcare', method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function height(url: string): Promise<number> {
  const status = await rpc(url, 'status', []);
  return status.sync_info.latest_block_height;
}

/** Resolves once the chain has a block above `above` (near-kit's waitForNextBlock). */
async function nextBlock(url: string, above: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const h = await height(url);
    if (h > above) return h;
    if (Date.now() > deadline) throw new Error(`no block above ${above} within 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function readJson(path: string): Promise<Json> {
  return JSON.parse(await readFile(path, 'utf8'));
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<Exit> {
  const exit = exitOf(child);
  child.kill(signal);
  return exit;
}

describe('near-sandbox --version and --help', () => {
  test('--version exits 0 with one line, as near-sandbox-js pings the binary', async () => {
    const exit = await run(['--version']);
    assert.equal(exit.code, 0, exit.stderr);
    assert.match(exit.stdout, /^near-sandbox \(release [^)]+\) .*\(protocol 86\)/);
  });

  test('--help exits 0 and names the commands', async () => {
    const exit = await run(['--help']);
    assert.equal(exit.code, 0);
    for (const word of ['init', 'run', 'dump-state', '--rpc-addr', '--fast'])
      assert.ok(exit.stdout.includes(word));
  });

  test('the built executable runs as the source does (--version, init)', async () => {
    const version = await exitOf(start(['--version'], true));
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout, (await run(['--version'])).stdout);
    const home = await tempDir();
    const init = await exitOf(start(['--home', home, 'init', '--chain-id', 'built'], true));
    assert.equal(init.code, 0, init.stderr);
    assert.equal((await readJson(join(home, 'genesis.json'))).chain_id, 'built');
    // `init` runs its own small bundle (src/near-sandbox/init-main.ts): its usage errors are the full entry's,
    // and what it does not run (help) is left to the full entry.
    const bad = await exitOf(start(['--home', await tempDir(), 'init', '--num-shards', 'none'], true));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid value 'none' for --num-shards/);
    const help = await exitOf(start(['init', '--help'], true));
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: near-sandbox/);
  });

  test('run by its path, it starts Node without NODE_EXTRA_CA_CERTS (it opens no TLS connection)', async () => {
    // Node warns on stderr when that file cannot be read; the executable's first lines (for sh) unset it.
    const missing = join(await tempDir(), 'no-such-certificates.pem');
    const direct = spawn(process.execPath, [BIN, '--version'], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: missing },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.match((await exitOf(direct)).stderr, /extra certs/i, 'node itself reads the variable');
    const byPath = await exitOf(start(['--version'], true, { NODE_EXTRA_CA_CERTS: missing }));
    assert.equal(byPath.code, 0);
    assert.equal(byPath.stderr, '');
    assert.match(byPath.stdout, /^near-sandbox \(release /);
  });

  test('an unknown command is a usage error', async () => {
    const exit = await run(['--home', '/nonexistent', 'frobnicate']);
    assert.equal(exit.code, 2);
    assert.match(exit.stderr, /unknown command 'frobnicate'/);
  });
});

describe('as near-sandbox-js 0.3 starts it', () => {
  test('init --fast, genesis and config edits, run, GET /status, SIGTERM', async () => {
    // near-sandbox-js: a temp dir it made (existing, empty), then `--home DIR init --fast`.
    const home = await tempDir();
    const init = await run(['--home', home, 'init', '--fast']);
    assert.equal(init.code, 0, init.stderr);
    const genesis = await readJson(join(home, 'genesis.json'));
    const config = await readJson(join(home, 'config.json'));
    const validatorKey = await readJson(join(home, 'validator_key.json'));
    const nodeKey = await readJson(join(home, 'node_key.json'));
    assert.match(genesis.chain_id, /^test-chain-[A-Za-z0-9]{5}$/, "neard's default chain id");
    assert.equal(genesis.epoch_length, 60, "--fast: neard's FAST_EPOCH_LENGTH");
    assert.deepEqual(config.consensus.min_block_production_delay, { secs: 0, nanos: 120_000_000 });
    assert.deepEqual(config.consensus.max_block_production_delay, { secs: 0, nanos: 500_000_000 });
    assert.equal(validatorKey.account_id, 'test.near');
    assert.match(validatorKey.public_key, /^ed25519:/);
    assert.match(validatorKey.secret_key, /^ed25519:/);
    assert.equal(nodeKey.account_id, 'node');
    assert.ok(
      genesis.records.some(
        (r: Json) =>
          r.AccessKey?.account_id === 'test.near' &&
          r.AccessKey.public_key === validatorKey.public_key &&
          r.AccessKey.access_key.permission === 'FullAccess',
      ),
      'a full-access key of test.near in genesis',
    );

    // overrideConfigs: records appended with total_supply adjusted, config keys merged.
    genesis.total_supply = (BigInt(genesis.total_supply) + SANDBOX_ACCOUNT.balance).toString();
    genesis.records.push(
      {
        Account: {
          account_id: SANDBOX_ACCOUNT.accountId,
          account: {
            amount: SANDBOX_ACCOUNT.balance.toString(),
            locked: '0',
            code_hash: '11111111111111111111111111111111',
            storage_usage: 182,
          },
        },
      },
      {
        AccessKey: {
          account_id: SANDBOX_ACCOUNT.accountId,
          public_key: SANDBOX_ACCOUNT.publicKey,
          access_key: { nonce: 0, permission: 'FullAccess' },
        },
      },
    );
    await writeFile(join(home, 'genesis.json'), JSON.stringify(genesis));
    config.rpc.limits_config.json_payload_max_size = 1024 * 1024 * 1024;
    config.store.max_open_files = 3000;
    await writeFile(join(home, 'config.json'), JSON.stringify(config));

    const rpcPort = await freePort();
    const netPort = await freePort();
    const child = start([
      '--home',
      home,
      'run',
      '--rpc-addr',
      `127.0.0.1:${rpcPort}`,
      '--network-addr',
      `127.0.0.1:${netPort}`,
    ]);
    const url = `http://127.0.0.1:${rpcPort}`;
    await waitReady(url, child);

    const account = await rpc(url, 'query', {
      request_type: 'view_account',
      finality: 'final',
      account_id: SANDBOX_ACCOUNT.accountId,
    });
    assert.equal(account.amount, SANDBOX_ACCOUNT.balance.toString());
    const key = await rpc(url, 'query', {
      request_type: 'view_access_key',
      finality: 'final',
      account_id: SANDBOX_ACCOUNT.accountId,
      public_key: SANDBOX_ACCOUNT.publicKey,
    });
    assert.equal(key.permission, 'FullAccess');
    const status = await rpc(url, 'status', []);
    assert.equal(status.chain_id, genesis.chain_id);

    // Blocks keep coming while idle, at the config's 120 ms.
    const h0 = await height(url);
    await nextBlock(url, h0 + 2);

    const exit = await stop(child, 'SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
  });

  test('view-state dump-state --stream while it runs writes output/{genesis,config,node_key,validator_key,records}.json', async () => {
    const home = await tempDir();
    assert.equal((await run(['--home', home, 'init', '--fast'])).code, 0);
    const port = await freePort();
    const child = start(['--home', home, 'run', '--rpc-addr', `127.0.0.1:${port}`]);
    const url = `http://127.0.0.1:${port}`;
    await waitReady(url, child);
    const dump = await run(['--home', home, 'view-state', 'dump-state', '--stream']);
    assert.equal(dump.code, 0, dump.stderr);
    const out = join(home, 'output');
    const [genesis, config, nodeKey, validatorKey, records] = await Promise.all(
      ['genesis', 'config', 'node_key', 'validator_key', 'records'].map((f) =>
        readJson(join(out, `${f}.json`)),
      ),
    );
    assert.deepEqual(genesis.records, []);
    assert.ok(Array.isArray(records) && records.some((r: Json) => r.Account?.account_id === 'test.near'));
    assert.equal(config.consensus.min_block_production_delay.nanos, 120_000_000);
    assert.equal(nodeKey.account_id, 'node');
    assert.equal(validatorKey.account_id, 'test.near');
    assert.equal(genesis.total_supply, totalSupply(records));
    assert.equal((await stop(child, 'SIGTERM')).code, 0);
  });
});

describe('one process per home', () => {
  test('a second run or an init on a running home is refused naming the process; SIGKILL leaves a stale lock the next run takes over', async () => {
    const home = await tempDir();
    assert.equal((await run(['--home', home, 'init', '--fast'])).code, 0);
    const port = await freePort();
    const first = start(['--home', home, 'run', '--rpc-addr', `127.0.0.1:${port}`]);
    await waitReady(`http://127.0.0.1:${port}`, first);

    const second = await run(['--home', home, 'run', '--rpc-addr', `127.0.0.1:${await freePort()}`]);
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, new RegExp(`is in use by process ${first.pid} \\(.*run.*\\) since `));
    const init = await run(['--home', home, 'init']);
    assert.equal(init.code, 1);
    assert.match(init.stderr, new RegExp(`in use by process ${first.pid}`));

    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('close', resolve));
    const port2 = await freePort();
    const third = start(['--home', home, 'run', '--rpc-addr', `127.0.0.1:${port2}`]);
    await waitReady(`http://127.0.0.1:${port2}`, third);
    const exit = await stop(third, 'SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(existsSync(join(home, 'shadebox.lock')), false, 'a clean stop removes the lock');
  });
});

describe('keys merged into the files between init and run', () => {
  test('json_payload_max_size, consensus delays and genesis fields are honoured; other neard run flags are accepted', async () => {
    const home = await tempDir();
    assert.equal((await run(['--home', home, 'init', '--fast'])).code, 0);
    const config = await readJson(join(home, 'config.json'));
    config.rpc.limits_config.json_payload_max_size = 4096;
    config.consensus.min_block_production_delay = { secs: 0, nanos: 50_000_000 };
    config.store.max_open_files = 3000;
    await writeFile(join(home, 'config.json'), JSON.stringify(config));
    const genesis = await readJson(join(home, 'genesis.json'));
    genesis.epoch_length = 7;
    await writeFile(join(home, 'genesis.json'), JSON.stringify(genesis));

    const port = await freePort();
    const child = start([
      '--home',
      home,
      'run',
      '--rpc-addr',
      `127.0.0.1:${port}`,
      '--network-addr',
      `127.0.0.1:${await freePort()}`,
      '--boot-nodes',
      '',
      '--min-peers',
      '0',
      '--produce-empty-blocks',
      'true',
    ]);
    const url = `http://127.0.0.1:${port}`;
    await waitReady(url, child);
    const big = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: ['x'.repeat(5000)] }),
    });
    assert.equal(big.status, 413, 'a body over json_payload_max_size is refused');
    const protocol = await rpc(url, 'EXPERIMENTAL_genesis_config', {});
    assert.equal(protocol.epoch_length, 7);
    await nextBlock(url, (await height(url)) + 3);
    assert.equal((await stop(child, 'SIGTERM')).code, 0);
  });
});

function totalSupply(records: Json[]): string {
  let sum = 0n;
  for (const r of records)
    if (r.Account) sum += BigInt(r.Account.account.amount) + BigInt(r.Account.account.locked);
  return sum.toString();
}

describe('as near-kit 0.19 starts it', () => {
  test('init --chain-id localnet, run on 0.0.0.0, dump-state, restart on the same home with an edited genesis', async () => {
    const home = await tempDir();
    const init = await run(['--home', home, 'init', '--chain-id', 'localnet']);
    assert.equal(init.code, 0, init.stderr);
    const original = join(home, 'genesis.original.json');
    await copyFile(join(home, 'genesis.json'), original);
    assert.equal((await readJson(original)).chain_id, 'localnet');
    assert.equal((await readJson(original)).epoch_length, 500, "neard's EXPECTED_EPOCH_LENGTH");

    const port = await freePort();
    const args = [
      '--home',
      home,
      'run',
      '--rpc-addr',
      `0.0.0.0:${port}`,
      '--network-addr',
      `0.0.0.0:${await freePort()}`,
    ];
    let child = start(args);
    const url = `http://127.0.0.1:${port}`;
    await waitReady(url, child);

    // State that only exists on this chain: an account with contract data, patched in.
    await rpc(url, 'sandbox_patch_state', {
      records: [
        {
          Account: {
            account_id: 'kit.test.near',
            account: { amount: '5000000000000000000000000', locked: '0' },
          },
        },
        { Contract: { account_id: 'kit.test.near', code: WASM_MODULE } },
        {
          Data: {
            account_id: 'kit.test.near',
            data_key: Buffer.from('k').toString('base64'),
            value: Buffer.from('v').toString('base64'),
          },
        },
      ],
    });
    await nextBlock(url, await height(url)); // near-kit's waitForNextBlock before dumping
    const dump = await run(['--home', home, 'view-state', 'dump-state']);
    assert.equal(dump.code, 0, dump.stderr);
    const snapshot = (await readJson(join(home, 'output.json'))).records as Json[];
    assert.ok(snapshot.some((r) => r.Data?.account_id === 'kit.test.near'));

    // restart(snapshot): kill, original genesis + snapshot records (deduplicated by account and record type),
    // total_supply recomputed, data/ deleted, run again on the same port.
    assert.equal((await stop(child, 'SIGTERM')).code, 0);
    const genesis = await readJson(original);
    const kind = (r: Json) => Object.keys(r)[0];
    const idOf = (r: Json) => r[kind(r)].account_id;
    const replaced = new Set(snapshot.map((r) => `${idOf(r)}:${kind(r)}`));
    genesis.records = [
      ...genesis.records.filter((r: Json) => !replaced.has(`${idOf(r)}:${kind(r)}`)),
      ...snapshot,
    ];
    genesis.total_supply = totalSupply(genesis.records);
    await writeFile(join(home, 'genesis.json'), JSON.stringify(genesis, null, 2));
    await rm(join(home, 'data'), { recursive: true, force: true });
    child = start(args);
    await waitReady(url, child);
    const data = await rpc(url, 'query', {
      request_type: 'view_state',
      finality: 'final',
      account_id: 'kit.test.near',
      prefix_base64: '',
    });
    assert.deepEqual(
      data.values.map((v: Json) => [v.key, v.value]),
      [[Buffer.from('k').toString('base64'), Buffer.from('v').toString('base64')]],
    );
    const code = await rpc(url, 'query', {
      request_type: 'view_code',
      finality: 'final',
      account_id: 'kit.test.near',
    });
    assert.equal(code.code_base64, WASM_MODULE);
    assert.ok((await height(url)) < 20, 'a new chain from the edited genesis');
    const exit = await stop(child, 'SIGINT');
    assert.equal(exit.code, 0, exit.stderr);
  });

  test('init refuses a home that already has one, and leaves it as it was', async () => {
    const home = await tempDir();
    assert.equal((await run(['--home', home, 'init', '--chain-id', 'localnet'])).code, 0);
    const before = await readFile(join(home, 'genesis.json'), 'utf8');
    const again = await run(['--home', home, 'init', '--chain-id', 'other']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already/);
    assert.equal(await readFile(join(home, 'genesis.json'), 'utf8'), before);
  });

  test('init creates a missing home, and --test-seed and --account-id make the validator key as neard does', async () => {
    const parent = await tempDir();
    const home = join(parent, 'a', 'b');
    const homes = [home, join(parent, 'c')];
    for (const h of homes) {
      const exit = await run([
        '--home',
        h,
        'init',
        '--account-id',
        'alice.near',
        '--test-seed',
        'alice.near',
      ]);
      assert.equal(exit.code, 0, exit.stderr);
    }
    const [k1, k2] = await Promise.all(homes.map((h) => readJson(join(h, 'validator_key.json'))));
    assert.equal(k1.account_id, 'alice.near');
    assert.deepEqual(k1, k2, 'the same seed gives the same key');
    const genesis = await readJson(join(home, 'genesis.json'));
    assert.equal(genesis.validators[0].account_id, 'alice.near');
    assert.equal(genesis.validators[0].public_key, k1.public_key);
  });
});
