/**
 * The digest of a local image as `npm run image` prints it (deploy/build-image.mjs): the manifest digest of the
 * image pushed as to a registry (Docker's manifest, layers gzip-compressed), here into a temporary folder. It is
 * the digest a compose file pins the image by, and the agent's codehash.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerEngineError } from './container-engine.js';

/** `sha256:<64 hex>` of `ref` in the engine's local store. */
export async function imageDigest(
  engine: string,
  ref: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'shadebox-image-digest-'));
  try {
    const digestFile = join(dir, 'digest');
    const args =
      engine === 'docker'
        ? // docker cannot push into a folder: a digest it pulled the image by is the only one it knows.
          ['image', 'inspect', '--format', '{{index .RepoDigests 0}}', ref]
        : [
            'push',
            '--quiet',
            '--compress',
            '--compression-format',
            'gzip',
            '--digestfile',
            digestFile,
            ref,
            `dir:${join(dir, 'image')}`,
          ];
    const { code, stdout, stderr } = await run(engine, args, env);
    if (code !== 0) {
      throw new ContainerEngineError(
        `the image ${ref} is not in ${engine}'s local store (${lastLine(stderr)}): build it with npm run image (docs/deploy.md)`,
      );
    }
    const digest =
      engine === 'docker' ? stdout.trim().replace(/^.*@/, '') : (await readFile(digestFile, 'utf8')).trim();
    if (!/^sha256:[0-9a-f]{64}$/.test(digest)) {
      throw new ContainerEngineError(`no digest for the image ${ref} (${engine} gave '${digest}')`);
    }
    return digest;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() || 'no message';
}

function run(
  cmd: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
