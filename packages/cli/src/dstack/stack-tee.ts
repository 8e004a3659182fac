/**
 * `shadebox up --tee dstack`: the stack's agent API in dstack mode against the local dstack (a simulated guest
 * agent on a Unix socket, ./server.ts), measuring a compose file (--dstack-compose FILE, or one up writes and
 * names). The built-in v1 contract's owner approves both image digests of that compose; the agent registers
 * with a simulated quote (docs/tee.md).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RegistrationFlow } from '@shadebox/agent-api';
import { UsageError } from '../usage-error.js';
import { composeImages, defaultAppCompose } from './compose-images.js';
import { startDstackServer } from './server.js';
import { DstackSimulator } from './simulator.js';

export const TEE_OPTIONS = {
  tee: { type: 'string' },
  'dstack-compose': { type: 'string' },
  'dstack-socket': { type: 'string' },
} as const;

export const TEE_HELP = `  --tee local|dstack
                 local (default): the agent registers with its codehash. dstack: the agent API runs in
                 dstack mode against a local dstack guest agent that up starts (SIMULATED: not a TEE,
                 its quotes are not attestations; 'shadebox dstack', docs/tee.md), registering with a
                 quote bound to its account. With the built-in v1 contract (or a contract of its flow)
                 the owner approves both image digests of the compose file; with --agent-contract v2
                 the contract is made with requires_tee true and the owner approves the simulated TD's
                 measurements and PPID (not with --agent-key-file, --agent-image, --whitelist-all or
                 a 2.0 contract of --agent-contract-wasm)
  --dstack-compose FILE
                 with --tee dstack: the compose file the simulated TD measures (a docker compose YAML
                 or an app-compose.json; for the v1 contract with '#shade-agent-api-image' and
                 '#shade-agent-app-image' images pinned by @sha256); default: one up writes (named in
                 the summary) pinning the local codehash (AGENT_CODEHASH) as the API image and an
                 example app image
  --dstack-socket PATH
                 with --tee dstack: the guest agent's Unix socket (default: in a new temporary folder)
`;

export type TeePlan = { mode: 'local' } | { mode: 'dstack'; compose?: string; socket?: string };

interface TeeFlags {
  tee?: string;
  'dstack-compose'?: string;
  'dstack-socket'?: string;
}

/** The plan from up's flags; refuses what dstack mode cannot run with. */
export function teePlanFromFlags(
  command: string,
  flags: TeeFlags,
  cwd: string,
  other: { agentKeyFile?: string; agentImage?: string; flow?: RegistrationFlow; builtInV2?: boolean },
): TeePlan {
  const mode = flags.tee ?? 'local';
  if (mode !== 'local' && mode !== 'dstack')
    throw new UsageError(command, `invalid value '${mode}' for --tee: expected local or dstack`, '--tee');
  if (mode === 'local') {
    for (const flag of ['dstack-compose', 'dstack-socket'] as const)
      if (flags[flag] !== undefined)
        throw new UsageError(command, `--${flag} needs --tee dstack`, `--${flag}`);
    return { mode };
  }
  if (other.agentKeyFile !== undefined)
    throw new UsageError(
      command,
      '--tee dstack derives the agent key from the TEE: drop --agent-key-file (or AGENT_KEY_FILE)',
      '--tee',
    );
  if (other.agentImage !== undefined)
    throw new UsageError(
      command,
      '--tee dstack with --agent-image is not supported yet (the container needs the socket mounted): run the compose file of docs/deploy.md',
      '--tee',
    );
  // The built-in 2.0 contract's requires_tee path checks what it can of the simulated quote; a 2.0 contract of
  // one's own build verifies quotes against Intel's root, which no simulated quote passes.
  if (other.flow === 'whitelist-local' && other.builtInV2 !== true)
    throw new UsageError(
      command,
      '--tee dstack with a 2.0 contract of --agent-contract-wasm: its requires_tee path verifies quotes against Intel, which the simulated quotes cannot pass; use --agent-contract v2',
      '--tee',
    );
  if (other.flow === 'whitelist')
    throw new UsageError(
      command,
      "--tee dstack registers through the v1 agent contract's TEE path or the built-in 2.0 contract's requires_tee path: not with the 2.0 template's pre-release",
      '--tee',
    );
  const plan: TeePlan = { mode };
  if (flags['dstack-compose'] !== undefined) plan.compose = resolve(cwd, flags['dstack-compose']);
  if (flags['dstack-socket'] !== undefined) plan.socket = resolve(cwd, flags['dstack-socket']);
  return plan;
}

/** The simulated TD's measurements as a 2.0 contract approves them (`approve_measurements`). */
export interface TdMeasurements {
  rtmrs: { mrtd: string; rtmr0: string; rtmr1: string; rtmr2: string };
  key_provider_event_digest: string;
  app_compose_hash_payload: string;
}

/** What the ready line's `tee` says (the images: those of a compose file that pins them, for the v1 contract). */
export interface StackDstackInfo {
  mode: 'dstack';
  simulated: true;
  socket: string;
  composeFile: string;
  composeHash: string;
  apiImage?: string;
  appImage?: string;
  /** The simulated TD's measurements and PPID (hex), which `--agent-contract v2` approves. */
  measurements: TdMeasurements;
  ppid: string;
}

export interface RunningStackDstack {
  info: StackDstackInfo;
  summary: Array<[string, string]>;
  stop(): Promise<void>;
}

export class StackDstackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StackDstackError';
  }
}

/** The example app image's digest in the compose up writes (no such image exists: the TD is simulated). */
export const EXAMPLE_APP_IMAGE_DIGEST = createHash('sha256').update('shadebox example app').digest('hex');

/** Starts the local dstack for the stack: the compose file (given, or written), the simulator on its socket. */
export async function startStackDstack(
  plan: Extract<TeePlan, { mode: 'dstack' }>,
  apiCodehash: string,
  o: { needsImages: boolean } = { needsImages: true },
): Promise<RunningStackDstack> {
  const dir = mkdtempSync(join(tmpdir(), 'shadebox-dstack-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    let composeFile = plan.compose;
    let text: string;
    if (composeFile === undefined) {
      composeFile = join(dir, 'docker-compose.yaml');
      text = defaultAppCompose(apiCodehash, EXAMPLE_APP_IMAGE_DIGEST);
      writeFileSync(composeFile, text);
    } else {
      try {
        text = readFileSync(composeFile, 'utf8');
      } catch (error) {
        throw new StackDstackError(
          `cannot read --dstack-compose ${composeFile} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
        );
      }
    }
    const sim = new DstackSimulator({ composeText: text });
    const images = composeImages(sim.compose.text);
    if (images === undefined && o.needsImages)
      throw new StackDstackError(
        `${composeFile}: the agent contract needs an image pinned by @sha256 after '#shade-agent-api-image' and after '#shade-agent-app-image' (docs/tee.md)`,
      );
    const socket = plan.socket ?? join(dir, 'dstack.sock');
    const server = await startDstackServer(sim, socket);
    return {
      info: {
        mode: 'dstack',
        simulated: true,
        socket,
        composeFile,
        composeHash: sim.compose.composeHash,
        ...(images === undefined ? {} : { apiImage: images.api, appImage: images.app }),
        measurements: {
          rtmrs: {
            mrtd: sim.mrtd.toString('hex'),
            rtmr0: sim.rtmr0.toString('hex'),
            rtmr1: sim.rtmr1.toString('hex'),
            rtmr2: sim.rtmr2.toString('hex'),
          },
          key_provider_event_digest: sim.eventLog.find((e) => e.event === 'key-provider')!.digest,
          app_compose_hash_payload: sim.compose.composeHash,
        },
        ppid: sim.ppid.toString('hex'),
      },
      summary: [
        ['TEE', 'dstack, SIMULATED (shadebox dstack: not a TEE, quotes are not attestations)'],
        ['dstack socket', socket],
        ['App compose', composeFile],
        ['Compose hash', sim.compose.composeHash],
        ...(o.needsImages && images !== undefined
          ? ([['Approved images', `${images.api} (API), ${images.app} (app)`]] as Array<[string, string]>)
          : ([
              ['Approved TD', `its measurements and PPID ${sim.ppid.toString('hex')} (requires_tee: true)`],
            ] as Array<[string, string]>)),
      ],
      async stop() {
        await server.close();
        removeDir();
      },
    };
  } catch (error) {
    removeDir();
    throw error;
  }
}
