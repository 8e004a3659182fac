// `npm run compose:local [-- OPTIONS] [-- UP FLAGS]`: the production topology (deploy/docker-compose.yaml) on this
// machine with one command. It
//   1. builds both images (`npm run image`, `npm run image -- --example-app`) unless the engine's store has them
//      built from this commit (--rebuild builds them anyway), and takes their digests;
//   2. writes deploy/docker-compose.yaml with those digests into a private folder: the file the local, SIMULATED
//      dstack measures (its compose hash; the agent contract approves both digests);
//   3. starts `shadebox up --host 0.0.0.0 --tee dstack --dstack-compose <that file> --dstack-socket … --json`;
//   4. writes test.near's key into a file in that folder (compose.local.yaml mounts it as a compose secret) and
//      runs `podman-compose -f deploy/compose.local.yaml up` (`docker compose` with docker) in the foreground:
//      the agent API registers through the local dstack and the example app prints its signature;
//   5. on Ctrl+C (SIGINT) or SIGTERM: `compose down`, then stops the stack and removes the folder.
// Its own lines go to stderr (`compose:local: …`), the containers' output to stdout. docs/deploy.md.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { containerEngine } from '../packages/cli/dist/agent-image/container-engine.js';
import { dockerDigest, pushedDigest } from '../packages/cli/dist/agent-image/image-digest.js';

const deploy = dirname(fileURLToPath(import.meta.url));
const root = join(deploy, '..');
const SHADEBOX = join(root, 'packages', 'cli', 'bin', 'shadebox.js');
const LOCAL_COMPOSE = join(deploy, 'compose.local.yaml');
const IMAGES = [
  { name: 'shadebox-agent-api', args: [] },
  { name: 'shadebox-example-app', args: ['--example-app'] },
];

const USAGE = `Usage: npm run compose:local [-- [--rebuild] [--project NAME] [--rpc-port P] [-- UP FLAGS...]]

Runs deploy/docker-compose.yaml's containers on this machine against a Shadebox node and the local, simulated
dstack: builds both images when needed, starts 'shadebox up --tee dstack' measuring the production compose file
with their digests, and runs deploy/compose.local.yaml with podman-compose (docker compose with docker). Ctrl+C
stops everything.
  --rebuild        build both images even if they are this commit's
  --project NAME   the compose project (default shadebox-local)
  --rpc-port P     the node's RPC port (default 3030; 0 picks a free one)
  -- FLAGS         more flags for shadebox up (e.g. -- --memory)
Environment: SHADEBOX_IMAGE_ENGINE (podman or docker), CONTAINERS_CONF. See docs/deploy.md.
`;

function say(line) {
  process.stderr.write(`compose:local: ${line}\n`);
}

function parseArgs(argv) {
  const options = { rebuild: false, project: 'shadebox-local', rpcPort: '3030', up: [], help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.up = argv.slice(i + 1);
      break;
    }
    if (arg === '--rebuild') options.rebuild = true;
    else if (arg === '--project' && argv[i + 1]) options.project = argv[++i];
    else if (arg === '--rpc-port' && argv[i + 1]) options.rpcPort = argv[++i];
    else if (arg === '-h' || arg === '--help') options.help = true;
    else throw new Error(`unknown argument '${arg}' (flags for shadebox up go after --)\n${USAGE}`);
  }
  return options;
}

/** The compose command of the engine: podman-compose, or docker's compose plugin. */
function composeCommand(engine, env) {
  const [cmd, ...args] = engine === 'docker' ? ['docker', 'compose'] : ['podman-compose'];
  const probe = spawnSync(cmd, [...args, 'version'], { env, stdio: 'ignore' });
  if (probe.status !== 0) {
    throw new Error(
      engine === 'docker'
        ? "'docker compose' does not run: install docker's compose plugin (docs/deploy.md)"
        : 'podman-compose is not installed: apt-get install podman-compose (docs/deploy.md)',
    );
  }
  return [cmd, ...args];
}

function commit() {
  return spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
}

/** The local image's id and the commit it was built from (its revision label), or undefined when missing. */
function inspect(engine, ref, env) {
  const out = spawnSync(
    engine,
    [
      'image',
      'inspect',
      '--format',
      '{{.Id}} {{index .Config.Labels "org.opencontainers.image.revision"}}',
      ref,
    ],
    { env, encoding: 'utf8' },
  );
  if (out.status !== 0) return undefined;
  const [id, revision] = out.stdout.trim().split(' ');
  return { id: id.replace(/^sha256:/, ''), revision };
}

/** Builds an image with deploy/build-image.mjs; returns the digest it prints (podman) or undefined (docker). */
function build(args, env) {
  const out = spawnSync(process.execPath, [join(deploy, 'build-image.mjs'), ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (out.status !== 0) throw new Error(`npm run image -- ${args.join(' ')} failed (exit ${out.status})`);
  return out.stdout.trim().split('\n').at(-1) || undefined;
}

/**
 * An image's digest: podman's as `npm run image` printed it (kept by image id), else pushed into a folder;
 * docker's from a registry, else the image's id in its place (docker cannot compute a local build's digest).
 */
async function digestOf(engine, name, version, id, built, dir, env) {
  const ref = `localhost/${name}:${version}`;
  if (engine !== 'docker') {
    if (built) return built;
    const cache = resolve(
      env.SHADEBOX_IMAGE_CACHE || join(root, 'node_modules', '.cache', 'shadebox-agent-image'),
    );
    try {
      return readFileSync(join(cache, 'digests', id), 'utf8').trim();
    } catch {
      say(`computing ${ref}'s digest (pushing it into a folder)`);
      return pushedDigest(engine, ref, join(dir, name), env);
    }
  }
  const repoDigests = spawnSync(engine, ['image', 'inspect', '--format', '{{json .RepoDigests}}', ref], {
    env,
    encoding: 'utf8',
  });
  try {
    return dockerDigest(ref, JSON.parse(repoDigests.stdout.trim() || 'null') ?? []);
  } catch {
    say(
      `warning: docker has no digest for ${ref} (a local build has none until pushed): the local dstack measures ` +
        'its image id in its place, so the codehash registered here is not the one production will approve; ' +
        'use podman for that (docs/deploy.md)',
    );
    return `sha256:${id}`;
  }
}

/** The node's address seen from a compose network. */
function hostFromContainers(engine, env) {
  if (engine !== 'docker') return 'host.containers.internal';
  const gateway = spawnSync(
    'docker',
    ['network', 'inspect', 'bridge', '--format', '{{(index .IPAM.Config 0).Gateway}}'],
    { env, encoding: 'utf8' },
  );
  return gateway.status === 0 && gateway.stdout.trim() !== '' ? gateway.stdout.trim() : '172.17.0.1';
}

function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => child.once('close', (code) => r(code)));
}

export async function composeLocal(argv) {
  const options = parseArgs(argv);
  if (options.help) {
    process.stderr.write(USAGE);
    return 0;
  }
  const env = { ...process.env };
  const engine = containerEngine(env);
  const compose = composeCommand(engine, env);
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const head = commit();
  const dir = mkdtempSync(join(tmpdir(), 'shadebox-compose-local-'));
  chmodSync(dir, 0o700);
  const composeArgs = ['-p', options.project, '-f', LOCAL_COMPOSE];
  const composeEnv = { ...env };
  const children = [];
  let composeStarted = false;
  let stopping;
  const stop = (code) => {
    stopping ??= (async () => {
      say(composeStarted ? 'stopping: compose down, then the stack' : 'stopping');
      if (composeStarted) {
        const down = spawnSync(compose[0], [...compose.slice(1), ...composeArgs, 'down'], {
          env: composeEnv,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        if (down.status !== 0) say(`compose down failed (exit ${down.status})`);
        // podman-compose 1.0 leaves the project's network behind.
        if (engine !== 'docker')
          spawnSync(engine, ['network', 'rm', '--force', `${options.project}_default`], {
            env,
            stdio: 'ignore',
          });
      }
      for (const child of children.reverse()) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited(child);
      }
      rmSync(dir, { recursive: true, force: true });
      return code;
    })();
    return stopping;
  };
  process.once('SIGINT', () => stop(0).then((c) => process.exit(c)));
  process.once('SIGTERM', () => stop(0).then((c) => process.exit(c)));
  try {
    // 1. The images, this commit's.
    const api = inspect(engine, `localhost/${IMAGES[0].name}:${version}`, env);
    const rebuild = options.rebuild || api?.revision !== head;
    const digests = [];
    for (const image of IMAGES) {
      const ref = `localhost/${image.name}:${version}`;
      let found = inspect(engine, ref, env);
      let built;
      if (rebuild || found?.revision !== head) {
        say(`building ${image.name} (${found ? `built from ${found.revision?.slice(0, 12)}` : 'not built'})`);
        built = build(image.args, env);
        found = inspect(engine, ref, env);
      } else say(`${ref} is this commit's (--rebuild builds it again)`);
      const digest = await digestOf(engine, image.name, version, found.id, built, dir, env);
      say(`${image.name}:${version} ${digest}`);
      digests.push(digest);
    }
    // 2. The production compose file with these digests: what the simulated dstack measures.
    const production = join(dir, 'docker-compose.yaml');
    writeFileSync(
      production,
      readFileSync(join(deploy, 'docker-compose.yaml'), 'utf8')
        .replace(/(shadebox-agent-api@)sha256:[0-9a-f]{64}/, `$1${digests[0]}`)
        .replace(/(shadebox-example-app@)sha256:[0-9a-f]{64}/, `$1${digests[1]}`),
    );
    // 3. The stack, in its own process group: Ctrl+C reaches this script, which stops things in order; and it
    // stops when this script's end closes its stdin, however this script ends (--stop-with-stdin).
    const socket = join(dir, 'dstack.sock');
    const upArgs = [
      'up',
      '--host',
      '0.0.0.0',
      '--rpc-port',
      options.rpcPort,
      '--tee',
      'dstack',
      '--dstack-compose',
      production,
      '--dstack-socket',
      socket,
      ...options.up,
      '--json',
      '--stop-with-stdin',
    ];
    say(`starting shadebox ${upArgs.join(' ')}`);
    const up = spawn(process.execPath, [SHADEBOX, ...upArgs], {
      env,
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: true,
    });
    children.push(up);
    const ready = await new Promise((resolveReady, reject) => {
      const lines = createInterface({ input: up.stdout });
      lines.on('line', (line) => {
        let event;
        try {
          event = JSON.parse(line);
        } catch {
          return;
        }
        if (event.event === 'ready') resolveReady(event);
      });
      up.once('close', (code) => reject(new Error(`shadebox up exited (${code}) before it was ready`)));
    });
    const rpcPort = new URL(ready.rpcUrl).port;
    const funding = ready.accounts.find((a) => a.accountId === ready.chainAccountId);
    say(
      `stack ready: RPC ${ready.rpcUrl}, explorer ${ready.explorerUrl}, simulated dstack ${socket} measuring ` +
        `${production} (compose hash ${ready.tee?.composeHash})`,
    );
    say(
      `the agent's EVM address (path ethereum-1), which the app's signature recovers to: ${ready.agentAddresses?.evm?.address}`,
    );
    // 4. The key as a compose secret: a file the container's user (10001) can read, in a folder only we enter.
    const keyFile = join(dir, 'chain-account-secret-key');
    writeFileSync(keyFile, `${funding.secretKey}\n`, { mode: 0o644 });
    composeEnv.NEAR_RPC_URL = `http://${hostFromContainers(engine, env)}:${rpcPort}`;
    composeEnv.DSTACK_SOCKET = socket;
    composeEnv.CHAIN_ACCOUNT_SECRET_KEY_FILE = keyFile;
    delete composeEnv.CHAIN_ACCOUNT_SECRET_KEY;
    say(`${compose.join(' ')} ${composeArgs.join(' ')} up (Ctrl+C stops everything)`);
    composeStarted = true;
    const composeUp = spawn(compose[0], [...compose.slice(1), ...composeArgs, 'up'], {
      env: composeEnv,
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    children.push(composeUp);
    // Runs until a signal; if the stack or compose ends first, everything stops.
    const ended = await Promise.race([
      exited(up).then((code) => `shadebox up exited (${code})`),
      exited(composeUp).then((code) => `compose up exited (${code})`),
    ]);
    if (stopping) return await stopping;
    say(ended);
    return await stop(1);
  } catch (error) {
    if (stopping) return await stopping;
    say(`error: ${error.message}`);
    return await stop(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = await composeLocal(process.argv.slice(2));
  } catch (error) {
    say(`error: ${error.message}`);
    process.exitCode = 1;
  }
}
