/**
 * Where `shadebox up` finds anvil, Foundry's local Ethereum node (the local EVM chain): `ANVIL_BIN` when it is
 * set (and only there: a path the user names is not second-guessed), else the platform package
 * `@foundry-rs/anvil-<platform>` that `npm install` brings as an optional dependency of the CLI, else `anvil` on
 * PATH. Only files are checked here (no `anvil --version`: that would cost every `up` a process start); a
 * binary that does not run fails when it is started.
 *
 * The platform package is resolved with createRequire from this module's URL, which in the CLI's bundle is the
 * bundle's (packages/cli/bundle/shadebox.js): either way the search starts in the CLI package's folder.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

/** npm package suffix of each platform Foundry publishes anvil for (`${process.platform}-${process.arch}`). */
const PLATFORM_PACKAGES: Record<string, string | undefined> = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-amd64',
};

export type AnvilLocation =
  | {
      found: true;
      path: string;
      /** How it was found: `ANVIL_BIN`, `@foundry-rs/anvil-linux-amd64`, `PATH`. */
      how: string;
    }
  | {
      found: false;
      /** Why none was found, e.g. `ANVIL_BIN is /x/anvil, which does not exist`. */
      reason: string;
      /** What to do about it. */
      advice: string;
    };

export interface LocateAnvilOptions {
  /** The environment to read ANVIL_BIN and PATH from. */
  env: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  arch?: string;
  /** Where the platform package's resolution starts (default: this module). */
  resolveFrom?: string;
}

/** The npm package holding anvil for this platform, or undefined where Foundry publishes none. */
export function anvilPackageName(platform: string = process.platform, arch: string = process.arch) {
  const suffix = PLATFORM_PACKAGES[`${platform}-${arch}`];
  return suffix === undefined ? undefined : `@foundry-rs/anvil-${suffix}`;
}

export function locateAnvil(options: LocateAnvilOptions): AnvilLocation {
  const { env } = options;
  const platform = options.platform ?? process.platform;
  const exe = platform === 'win32' ? 'anvil.exe' : 'anvil';
  const pkg = anvilPackageName(platform, options.arch ?? process.arch);

  const fromEnv = env.ANVIL_BIN;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (isExecutableFile(fromEnv, platform)) return { found: true, path: fromEnv, how: 'ANVIL_BIN' };
    return {
      found: false,
      reason: `ANVIL_BIN is ${fromEnv}, which is not an executable file`,
      advice: `point ANVIL_BIN at an anvil binary, or unset it to use ${pkg ?? 'anvil on PATH'}`,
    };
  }

  if (pkg !== undefined) {
    try {
      const manifest = createRequire(options.resolveFrom ?? import.meta.url).resolve(`${pkg}/package.json`);
      const path = join(dirname(manifest), 'bin', exe);
      if (isExecutableFile(path, platform)) return { found: true, path, how: pkg };
    } catch {
      // Not installed (an install without optional dependencies): PATH next.
    }
  }

  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, exe);
    if (isExecutableFile(path, platform)) return { found: true, path, how: 'PATH' };
  }

  return pkg === undefined
    ? {
        found: false,
        reason: `anvil is not installed (no anvil on PATH, and Foundry publishes no npm package of it for ${platform}-${options.arch ?? process.arch})`,
        advice: 'install Foundry (https://getfoundry.sh) and put anvil on PATH, or set ANVIL_BIN',
      }
    : {
        found: false,
        reason: `anvil is not installed (${pkg} is not in node_modules, no anvil on PATH)`,
        advice: `run 'npm install' with optional dependencies (or 'npm install ${pkg}'), or set ANVIL_BIN to an anvil binary`,
      };
}

function isExecutableFile(path: string, platform: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    // Windows has no execute bit: a file is enough.
    if (platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
