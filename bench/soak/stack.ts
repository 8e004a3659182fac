/**
 * The soak's stack: `shadebox up --home <temp dir> --rpc-port 0 --agent-port 0 --json` (the built CLI) as a
 * child process, on a fresh disk home; resolves once the agent-ready line has arrived.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrackedChild } from '../processes.js';
import { spawnTracked } from '../processes.js';
import { REPO_ROOT, shadeboxCommand } from '../shadebox-node.js';

const UP_TIMEOUT_MS = 120_000;

export interface SoakStack {
  child: TrackedChild;
  /** The temp dir given to `--home`. */
  homeDir: string;
  /** The node's home inside it (the ready line's `home`). */
  nodeHome: string;
  rpcUrl: string;
  archivalRpcUrl: string;
  agentApiUrl: string;
  agentContractId: string;
  mpcContractId: string;
  agentAccountId: string;
  /** The funded genesis account and its key. */
  root: { accountId: string; secretKey: string };
}

export async function startSoakStack(): Promise<SoakStack> {
  const homeDir = mkdtempSync(join(tmpdir(), 'shadebox-soak-'));
  const { command, args, env } = shadeboxCommand({
    launcher: 'cli',
    subcommand: 'up',
    home: homeDir,
    extraArgs: ['--agent-port', '0'],
  });
  const child = spawnTracked(command, args, { cwd: REPO_ROOT, env, keepStdinOpen: true });
  let ready: Record<string, unknown> | undefined;
  try {
    const { value: agentAccountId } = await child.waitForLine((line) => {
      if (!line.startsWith('{')) return undefined;
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return undefined;
      }
      if (json.event === 'ready') ready = json;
      return json.event === 'agent-ready' && typeof json.agentAccountId === 'string'
        ? json.agentAccountId
        : undefined;
    }, UP_TIMEOUT_MS);
    const text = (key: string) => {
      const v = ready?.[key];
      if (typeof v !== 'string') throw new Error(`the ready line lacks ${key}: ${JSON.stringify(ready)}`);
      return v;
    };
    const accounts = ready?.accounts as Array<{ accountId: string; secretKey: string }> | undefined;
    if (!accounts?.[0]?.secretKey) throw new Error('the ready line gives no funded account key');
    return {
      child,
      homeDir,
      nodeHome: text('home'),
      rpcUrl: text('rpcUrl'),
      archivalRpcUrl: text('archivalRpcUrl'),
      agentApiUrl: text('agentApiUrl'),
      agentContractId: text('agentContractId'),
      mpcContractId: text('mpcContractId'),
      agentAccountId,
      root: { accountId: accounts[0].accountId, secretKey: accounts[0].secretKey },
    };
  } catch (error) {
    await child.stop(2000);
    throw error;
  }
}
