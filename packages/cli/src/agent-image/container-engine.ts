/**
 * The container engine that builds and runs the agent API's image (`npm run image`, `shadebox up --agent-image`,
 * `npm run compose:local`): podman, else docker. `SHADEBOX_IMAGE_ENGINE` names one. The docker client alone is not
 * enough (some machines have it without its daemon): docker is taken only once `docker info` answers.
 * deploy/build-image.mjs and deploy/compose-local.mjs use this module from the build (dist/).
 */
import { spawnSync } from 'node:child_process';

export class ContainerEngineError extends Error {}

/** What choosing an engine needs to know about the machine (containerEngine asks the real one). */
export interface EngineProbe {
  /** `<cmd> --version` runs. */
  installed(cmd: string): boolean;
  /** Why docker's daemon does not answer `docker info`, or undefined when it does. */
  dockerDaemonProblem(): string | undefined;
}

const INSTALL = 'apt-get install podman (docs/deploy.md)';

/** The engine to use: `wanted` (SHADEBOX_IMAGE_ENGINE) if set, else podman, else docker with a daemon. */
export function chooseContainerEngine(wanted: string | undefined, probe: EngineProbe): string {
  const named = wanted?.trim();
  if (named) {
    if (!probe.installed(named))
      throw new ContainerEngineError(`SHADEBOX_IMAGE_ENGINE=${named}: '${named} --version' fails`);
    if (named === 'docker') checkDockerDaemon(probe);
    return named;
  }
  if (probe.installed('podman')) return 'podman';
  if (probe.installed('docker')) {
    checkDockerDaemon(probe);
    return 'docker';
  }
  throw new ContainerEngineError(`neither podman nor docker is installed: ${INSTALL}`);
}

function checkDockerDaemon(probe: EngineProbe): void {
  const problem = probe.dockerDaemonProblem();
  if (problem === undefined) return;
  throw new ContainerEngineError(
    `docker is installed but its daemon does not answer (${problem}): start the daemon (e.g. systemctl start ` +
      `docker), or install podman, which needs none and is preferred: ${INSTALL}`,
  );
}

/** The reason in what `docker info` said when it failed (its last error line), or undefined when it worked. */
export function dockerInfoProblem(status: number | null, stderr: string, error?: Error): string | undefined {
  if (status === 0) return undefined;
  if (error) return `'docker info' did not run: ${error.message}`;
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const line = lines.filter((l) => /cannot connect|error|daemon/i.test(l)).at(-1) ?? lines.at(-1);
  return line ?? `'docker info' exited with ${status ?? 'a signal'}`;
}

/** The engine to use on this machine (see chooseContainerEngine), probing with `env`'s PATH. */
export function containerEngine(env: Record<string, string | undefined>): string {
  const spawnEnv = env as NodeJS.ProcessEnv;
  return chooseContainerEngine(env.SHADEBOX_IMAGE_ENGINE, {
    installed: (cmd) => spawnSync(cmd, ['--version'], { stdio: 'ignore', env: spawnEnv }).status === 0,
    dockerDaemonProblem: () => {
      const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
        env: spawnEnv,
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 15_000,
      });
      return dockerInfoProblem(info.status, info.stderr ?? '', info.error);
    },
  });
}

/** The version in what `podman --version` (or `docker --version`) prints: `podman version 4.3.1` → 4.3.1. */
export function engineVersionOf(output: string): string | undefined {
  return /\bversion\s+v?(\d+(?:\.\d+)+[^\s,]*)/i.exec(output)?.[1];
}

/**
 * The warning a build prints when its podman is not the pinned one (deploy/image-pins.json's "engine"): the
 * layers' tar and gzip bytes are podman's, so the digest may differ. Undefined when the versions match.
 */
export function engineVersionWarning(
  pin: { name: string; version: string },
  engine: string,
  versionOutput: string,
  pinsFile: string,
): string | undefined {
  if (engine !== pin.name) return undefined;
  const version = engineVersionOf(versionOutput);
  if (version === pin.version) return undefined;
  return (
    `${engine} ${version ?? `of unknown version ('${versionOutput.trim()}')`} is not the pinned ` +
    `${pin.name} ${pin.version} (${pinsFile}, "engine"): ${pin.name} writes the layers' tar and gzip bytes, so ` +
    `this digest may differ from the one ${pin.name} ${pin.version} gives for the same commit (the codehash a ` +
    `third party checks). Build with ${pin.name} ${pin.version} to check a codehash; to move the project to ` +
    `this ${pin.name}, set "engine"."version" to ${version ?? '<its version>'} in ${pinsFile}, build, and have ` +
    'the new digest approved.'
  );
}
