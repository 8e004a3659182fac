/**
 * The digest of a local image as `npm run image` prints it (deploy/build-image.mjs): the manifest digest of the
 * image pushed as to a registry (Docker's manifest, layers gzip-compressed). It is the digest a compose file pins
 * the image by, and the agent's codehash.
 *
 * podman computes it without a registry: it pushes the image into a temporary folder (the `dir:` transport).
 * docker cannot push into a folder, so with docker the digest is the one in the reference (`name@sha256:…`) or
 * one docker knows from a registry (RepoDigests: it pulled or pushed the image); a local `docker build` has none,
 * and that is an error saying what to do (dockerDigest).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerEngineError } from './container-engine.js';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** `sha256:<64 hex>` of `ref` in the engine's local store. */
export async function imageDigest(
  engine: string,
  ref: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  if (engine === 'docker') {
    const { code, stdout, stderr } = await run(
      engine,
      ['image', 'inspect', '--format', '{{json .RepoDigests}}', ref],
      env,
    );
    if (code !== 0) throw notInStore(engine, ref, stderr);
    return dockerDigest(ref, JSON.parse(stdout.trim() || 'null') ?? []);
  }
  const dir = await mkdtemp(join(tmpdir(), 'shadebox-image-digest-'));
  try {
    return await pushedDigest(engine, ref, join(dir, 'image'), env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The push whose manifest digest is the image's digest, for podman: `ref` into the folder `into` (the `dir:`
 * transport), layers gzip-compressed, the digest written to `digestFile`. deploy/build-image.mjs pushes the
 * same way, so `npm run image` and `up --agent-image` name one digest.
 */
export function digestPushArgs(ref: string, into: string, digestFile: string): string[] {
  return [
    'push',
    '--quiet',
    '--compress',
    '--compression-format',
    'gzip',
    '--digestfile',
    digestFile,
    ref,
    `dir:${into}`,
  ];
}

/**
 * podman's digest of `ref`: pushes it into the folder `into` (gzip layers, Docker's manifest) and returns the
 * manifest's digest.
 */
export async function pushedDigest(
  engine: string,
  ref: string,
  into: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  const digestFile = `${into}.digest`;
  try {
    const { code, stderr } = await run(engine, digestPushArgs(ref, into, digestFile), env);
    if (code !== 0) throw notInStore(engine, ref, stderr);
    const digest = (await readFile(digestFile, 'utf8')).trim();
    if (!DIGEST.test(digest)) {
      throw new ContainerEngineError(`no digest for the image ${ref} (${engine} gave '${digest}')`);
    }
    return digest;
  } finally {
    await rm(digestFile, { force: true });
  }
}

/**
 * docker's digest of `ref` given its RepoDigests (`repo@sha256:…`): the reference's own digest, else the one of
 * the reference's repository, else the only one; a local build has none, and gets an error saying what to do.
 */
export function dockerDigest(ref: string, repoDigests: readonly string[]): string {
  const own = /@(sha256:[0-9a-f]{64})$/.exec(ref)?.[1];
  if (own) return own;
  const repo = repositoryOf(ref);
  const digests = repoDigests.map((d) => ({
    repo: d.slice(0, d.lastIndexOf('@')),
    digest: d.split('@').at(-1)!,
  }));
  const match = digests.find((d) => d.repo === repo) ?? (digests.length === 1 ? digests[0] : undefined);
  if (match && DIGEST.test(match.digest)) return match.digest;
  throw new ContainerEngineError(
    `docker has no digest for the image ${ref}: a local docker build has none until it is pushed, and docker ` +
      'cannot compute the pushed digest without a registry (podman can: it pushes into a folder). Either install ' +
      'podman (apt-get install podman) and build with it (npm run image), or push the image (docker push ' +
      `<registry>/${repo.split('/').at(-1)}:<tag>) and run with the digest it prints: --agent-image ` +
      `<registry>/${repo.split('/').at(-1)}@sha256:<digest> (docs/deploy.md)`,
  );
}

/** `registry/name:tag` → `registry/name`; `name` alone as docker names it (`docker.io/library/name`'s short form). */
function repositoryOf(ref: string): string {
  const withoutDigest = ref.replace(/@.*$/, '');
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  return colon > slash ? withoutDigest.slice(0, colon) : withoutDigest;
}

function notInStore(engine: string, ref: string, stderr: string): ContainerEngineError {
  return new ContainerEngineError(
    `the image ${ref} is not in ${engine}'s local store (${lastLine(stderr)}): build it with npm run image (docs/deploy.md)`,
  );
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
