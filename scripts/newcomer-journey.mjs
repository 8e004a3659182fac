#!/usr/bin/env node
// The newcomer's journey, timed step by step (a check of the README's quick start on a fresh clone):
//
//   1. fresh clone        git clone of this repository (its committed HEAD) into a temporary folder
//   2. npm install        in the clone: dependencies, then `prepare` builds the packages and the contracts
//   3. npm start          `shadebox up` until the agent is registered (free ports and --json, so that the run
//                         neither collides with a stack already on 3030/3140 nor has to parse the summary)
//   4. agent clients      the agent script's clients, @neardefi/shade-agent-js and viem, are not dependencies of the
//                         repository: a developer installs them in their own project; here the repository's test
//                         clients are installed (scripts/test-clients.mjs), which include both
//   5. agent script       a script written as a Shade Agent developer writes one, with the original client
//                         @neardefi/shade-agent-js: requestSignature on path ethereum-1 for the keccak256 of a
//                         message; the signature must recover (viem) to the agent's EVM address that `up` printed
//
//   node scripts/newcomer-journey.mjs [--keep]      (--keep leaves the clone in place and says where)
//
// It prints one line per step with its time and the load average before and after (the machine is shared).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');

/** The agent script a newcomer writes: the original client, one signature, checked with viem. */
const AGENT_SCRIPT = `import { requestSignature } from '@neardefi/shade-agent-js';
import { keccak256, recoverAddress, toHex } from 'viem';

const hash = keccak256(toHex('hello from my first shade agent'));
const sig = await requestSignature({ path: 'ethereum-1', payload: hash.slice(2), keyType: 'Ecdsa' });
const r = \`0x\${sig.big_r.affine_point.slice(2)}\`; // the compressed point's x coordinate
const s = \`0x\${sig.s.scalar}\`;
const address = await recoverAddress({ hash, signature: { r, s, yParity: sig.recovery_id } });
console.log(JSON.stringify({ address }));
`;

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

function timed(name, fn) {
  const started = performance.now();
  const loadBefore = load();
  return Promise.resolve(fn()).then((detail) => {
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${name.padEnd(14)} ${seconds.toFixed(1).padStart(6)} s   load ${loadBefore} → ${load()}${detail ? `   ${detail}` : ''}`,
    );
    return seconds;
  });
}

function sh(command, args, cwd, env = process.env) {
  execFileSync(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** `npm start` with free ports until the agent-ready line; resolves with the ready line and the process. */
function startStack(cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['start', '--', '--rpc-port', '0', '--agent-port', '0', '--json'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const lines = out.split('\n').filter((l) => l.startsWith('{'));
      const ready = lines.map((l) => JSON.parse(l)).find((e) => e.event === 'ready');
      const agent = lines.map((l) => JSON.parse(l)).find((e) => e.event === 'agent-ready');
      if (ready && agent) resolve({ ready, agent, child });
    });
    child.once('close', (code) => reject(new Error(`npm start exited (${code}) first:\n${err}`)));
  });
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'shadebox-newcomer-'));
  const clone = join(work, 'shadebox');
  let stack;
  const times = {};
  try {
    console.log(`newcomer journey in ${clone} (Node ${process.version}, ${new Date().toISOString()})`);
    times.clone = await timed('fresh clone', () => sh('git', ['clone', '--quiet', root, clone], work));
    times.install = await timed('npm install', () => sh('npm', ['install'], clone));
    let ready;
    times.start = await timed('npm start', async () => {
      stack = await startStack(clone);
      ready = stack.ready;
      return `agent ${stack.agent.agentAccountId.slice(0, 12)}… registered; EVM address ${ready.agentAddresses.evm.address}`;
    });
    times.clients = await timed('agent clients', () =>
      sh(process.execPath, ['scripts/test-clients.mjs'], clone),
    );
    times.agent = await timed('agent script', () => {
      writeFileSync(join(clone, 'my-agent.mjs'), AGENT_SCRIPT);
      const out = execFileSync(process.execPath, ['my-agent.mjs'], {
        cwd: clone,
        env: { ...process.env, API_PORT: new URL(ready.agentApiUrl).port },
        encoding: 'utf8',
      });
      const { address } = JSON.parse(out.trim().split('\n').at(-1));
      if (address.toLowerCase() !== ready.agentAddresses.evm.address.toLowerCase()) {
        throw new Error(
          `the signature recovers to ${address}, not the agent's ${ready.agentAddresses.evm.address}`,
        );
      }
      return `signature verified: recovers to ${address}`;
    });
    const total = Object.values(times).reduce((a, b) => a + b, 0);
    console.log(`${'total'.padEnd(14)} ${total.toFixed(1).padStart(6)} s`);
  } finally {
    if (stack) {
      // npm start's process group: npm, and shadebox up under it.
      process.kill(-stack.child.pid, 'SIGTERM');
      await new Promise((r) => stack.child.once('close', r));
    }
    if (keep) console.log(`kept ${clone}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

await main();
