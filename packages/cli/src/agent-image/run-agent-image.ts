/**
 * The agent API run from its container image (`shadebox up --agent-image`), as production runs it: the image's
 * own entry (`shadebox agent --json`), configured only by environment, on the host's network so that it reaches
 * the stack's node at 127.0.0.1 and listens where the in-process agent API would. Secrets go to the engine in
 * its environment and reach the container by name (`-e NAME`), never on a command line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Logger } from '@shadebox/node';
import { ContainerEngineError } from './container-engine.js';

export interface RunningAgentImage {
  /** The agent API's URL (from the container's ready line). */
  url: string;
  /** Resolves with the agent account once registered (the container's agent-ready line). */
  onReady(): Promise<string>;
  /** SIGTERM to the container (the agent API answers what is in flight), then waits for it to end. */
  stop(): Promise<void>;
}

export async function startAgentImage(o: {
  engine: string;
  ref: string;
  /** The agent API's variables (docs/agent-api.md): all go into the container, by name. */
  agentEnv: Record<string, string | undefined>;
  /** The engine's own environment (PATH, CONTAINERS_CONF, …). */
  env: Record<string, string | undefined>;
  log: Logger;
}): Promise<RunningAgentImage> {
  const name = `shadebox-agent-api-${process.pid}-${Date.now().toString(36)}`;
  const names = Object.keys(o.agentEnv).filter((k) => o.agentEnv[k] !== undefined);
  const args = [
    'run',
    '--rm',
    '--name',
    name,
    '--network',
    'host',
    '--pull=never',
    ...names.flatMap((n) => ['-e', n]),
    o.ref,
    '--json',
  ];
  const child: ChildProcess = spawn(o.engine, args, {
    env: { ...o.env, ...o.agentEnv } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderrTail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderrTail.push(line);
    if (stderrTail.length > 20) stderrTail.shift();
    o.log.info({ container: name }, line);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code));
  });
  const failed = (what: string) =>
    new ContainerEngineError(
      `the agent API's container (${o.ref}) ${what}: ${stderrTail.slice(-6).join(' | ') || 'no message'}`,
    );
  let resolveUrl!: (url: string) => void;
  let resolveReady!: (account: string) => void;
  const url = new Promise<string>((r) => {
    resolveUrl = r;
  });
  const ready = new Promise<string>((r) => {
    resolveReady = r;
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let event: { event?: string; agentApiUrl?: string; agentAccountId?: string };
    try {
      event = JSON.parse(line);
    } catch {
      o.log.info({ container: name }, line);
      return;
    }
    if (event.event === 'ready' && event.agentApiUrl) resolveUrl(event.agentApiUrl);
    if (event.event === 'agent-ready' && event.agentAccountId) resolveReady(event.agentAccountId);
  });
  let stopping = false;
  const ended = exited.then((code) => {
    if (!stopping) throw failed(`exited (${code ?? 'not started'})`);
  });
  ended.catch(() => undefined);
  const agentApiUrl = await Promise.race([url, ended.then(() => Promise.reject(failed('ended')))]);
  return {
    url: agentApiUrl,
    onReady: () => Promise.race([ready, ended.then(() => Promise.reject(failed('stopped')))]),
    stop: async () => {
      if (stopping) return;
      stopping = true;
      await new Promise<void>((resolve) => {
        const stop = spawn(o.engine, ['stop', '--time', '10', name], {
          stdio: 'ignore',
          env: o.env as NodeJS.ProcessEnv,
        });
        stop.on('error', () => resolve());
        stop.on('close', () => resolve());
      });
      await exited;
    },
  };
}
