/**
 * The container engine that runs the agent API's image: podman, else docker (the client alone is not enough:
 * docker needs its daemon). `SHADEBOX_IMAGE_ENGINE` names one.
 */
import { spawnSync } from 'node:child_process';

export class ContainerEngineError extends Error {}

export function containerEngine(env: Record<string, string | undefined>): string {
  const works = (cmd: string) =>
    spawnSync(cmd, ['--version'], { stdio: 'ignore', env: env as NodeJS.ProcessEnv }).status === 0;
  const wanted = env.SHADEBOX_IMAGE_ENGINE?.trim();
  if (wanted) {
    if (!works(wanted))
      throw new ContainerEngineError(`SHADEBOX_IMAGE_ENGINE=${wanted}: '${wanted} --version' fails`);
    return wanted;
  }
  if (works('podman')) return 'podman';
  if (works('docker')) return 'docker';
  throw new ContainerEngineError(
    '--agent-image needs podman (or docker) to run the image: apt-get install podman (docs/deploy.md)',
  );
}
