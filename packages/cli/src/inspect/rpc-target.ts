/**
 * Where an inspection command sends its JSON-RPC and whose keys it may sign with: `--rpc URL` (any NEAR RPC),
 * else the address in the home's `config.json` (`rpc.addr`), else the local default `http://127.0.0.1:3030`.
 * The home is `--home DIR` (a stack home as for `shadebox up`, or a node home as for `shadebox node`), by
 * default `./.shadebox`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RpcClient } from '@shadebox/near-client';
import { textFlag } from '../args.js';
import { DEFAULT_STACK_HOME, nodeHomeOf } from '../default-homes.js';
import { UsageError } from '../usage-error.js';

/** The local node's address when no home says otherwise. */
export const DEFAULT_RPC_URL = 'http://127.0.0.1:3030';

/** How long one RPC request may take, ms. */
const RPC_TIMEOUT_MS = 30_000;

export interface RpcTarget {
  rpc: RpcClient;
  url: string;
  /** The node home whose files were read (it may not exist). */
  nodeHome: string;
}

/** The node home of `--home DIR`: DIR itself when it holds a config.json, else DIR/node. */
export function nodeHomeFromFlag(command: string, cwd: string, home: string | undefined): string {
  const dir = resolve(cwd, home === undefined ? DEFAULT_STACK_HOME : textFlag(command, '--home', home));
  return existsSync(join(dir, 'config.json')) ? dir : nodeHomeOf(dir);
}

/** The RPC URL of a node home's config.json, or undefined when there is none or it cannot be read. */
export function rpcUrlOfHome(nodeHome: string): string | undefined {
  try {
    const config = JSON.parse(readFileSync(join(nodeHome, 'config.json'), 'utf8')) as {
      rpc?: { addr?: unknown };
    };
    const addr = config.rpc?.addr;
    if (typeof addr !== 'string') return undefined;
    const colon = addr.lastIndexOf(':');
    if (colon <= 0) return undefined;
    let host = addr.slice(0, colon);
    // A node listening on every interface is reached on loopback.
    if (host === '0.0.0.0' || host === '[::]' || host === '::') host = '127.0.0.1';
    return `http://${host}:${addr.slice(colon + 1)}`;
  } catch {
    return undefined;
  }
}

export function rpcTarget(
  command: string,
  cwd: string,
  flags: { rpc?: string | undefined; home?: string | undefined },
): RpcTarget {
  const nodeHome = nodeHomeFromFlag(command, cwd, flags.home);
  let url: string;
  if (flags.rpc !== undefined) {
    url = textFlag(command, '--rpc', flags.rpc);
    if (!/^https?:\/\/[^\s]+$/.test(url)) {
      throw new UsageError(
        command,
        `invalid value '${url}' for --rpc: expected an http:// or https:// URL`,
        '--rpc',
      );
    }
  } else {
    url = rpcUrlOfHome(nodeHome) ?? DEFAULT_RPC_URL;
  }
  return { rpc: new RpcClient(url, { timeoutMs: RPC_TIMEOUT_MS, idPrefix: 'shadebox-cli' }), url, nodeHome };
}

/** The flags every inspection command takes. */
export const TARGET_OPTIONS = {
  rpc: { type: 'string' },
  home: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Their help lines. */
export const TARGET_HELP = `  --rpc URL      any NEAR JSON-RPC (default: the address in the home's config.json, else
                 ${DEFAULT_RPC_URL})
  --home DIR     the stack home (as for 'shadebox up') or node home (as for 'shadebox node') whose
                 config.json and keys are used (default ./.shadebox)
  --json         print the RPC's answer as JSON instead of text, for scripts
  -h, --help     show this help
`;
