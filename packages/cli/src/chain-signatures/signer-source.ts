/**
 * Where a stack's signer code comes from: Shadebox's own signer (the default), a build on disk
 * (`--signer-wasm FILE`), or the code of an account on any NEAR RPC (`--signer-from URL[#ACCOUNT]`, default
 * account `v1.signer`), read with `query view_code` and cached in the home (`signer-code/`), so a restart
 * does not need the remote.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ShadeboxError } from '@shadebox/errors';
import { isValidAccountId } from '@shadebox/primitives';
import { exclusiveFlags, textFlag } from '../args.js';
import { UsageError } from '../usage-error.js';

export const DEFAULT_REMOTE_SIGNER = 'v1.signer';

export type SignerSource =
  | { kind: 'file'; path: string }
  | { kind: 'remote'; rpcUrl: string; accountId: string };

/** The flags `shadebox node --mpc` and `shadebox up` take for the signer code. */
export const SIGNER_OPTIONS = {
  'signer-wasm': { type: 'string' },
  'signer-from': { type: 'string' },
} as const;

export const SIGNER_HELP = `  --signer-wasm FILE  deploy this signer build (one of NEAR's, e.g. signer-3_13_0.wasm) at the MPC
                    contract id instead of Shadebox's signer, initialised running with the responder's
                    root keys (domains 0 secp256k1, 1 ed25519) and participants the responder controls
  --signer-from URL[#ACCOUNT]  the same with the code of ACCOUNT (default ${DEFAULT_REMOTE_SIGNER}) read from the
                    NEAR RPC at URL (query view_code), cached in the home (signer-code/)
`;

/** The signer source the flags name, or undefined for Shadebox's signer. */
export function signerSourceFromFlags(
  command: string,
  flags: { 'signer-wasm'?: string; 'signer-from'?: string },
  cwd: string,
): SignerSource | undefined {
  exclusiveFlags(command, {
    '--signer-wasm': flags['signer-wasm'] !== undefined,
    '--signer-from': flags['signer-from'] !== undefined,
  });
  if (flags['signer-wasm'] !== undefined) {
    return { kind: 'file', path: resolve(cwd, textFlag(command, '--signer-wasm', flags['signer-wasm'])) };
  }
  if (flags['signer-from'] !== undefined) {
    const value = textFlag(command, '--signer-from', flags['signer-from']);
    const hash = value.indexOf('#');
    const rpcUrl = hash === -1 ? value : value.slice(0, hash);
    const accountId = hash === -1 ? DEFAULT_REMOTE_SIGNER : value.slice(hash + 1);
    if (!/^https?:\/\/./.test(rpcUrl) || !isValidAccountId(accountId)) {
      throw new UsageError(
        command,
        `invalid value '${value}' for --signer-from: expected URL[#ACCOUNT]`,
        '--signer-from',
      );
    }
    return { kind: 'remote', rpcUrl, accountId };
  }
  return undefined;
}

/** The signer code could not be read (a missing file, a remote without that account or code). */
export class SignerCodeError extends ShadeboxError<{ source: SignerSource }> {
  constructor(message: string, source: SignerSource, cause?: unknown) {
    super(message, {
      details: { source },
      cause,
      docsPath: 'docs/chain-signatures.md#running-nears-production-signer',
    });
  }
}

/** The file a remote signer's code is cached in, under `home`. */
export function cachedSignerPath(home: string, source: { rpcUrl: string; accountId: string }): string {
  const tag = createHash('sha256').update(source.rpcUrl).digest('hex').slice(0, 12);
  return join(home, 'signer-code', `${source.accountId}@${tag}.wasm`);
}

/** Reads the code `source` names: the file, the home's cached copy, or the remote's `view_code` (then cached). */
export async function readSignerCode(source: SignerSource, home: string | null): Promise<Uint8Array> {
  if (source.kind === 'file') {
    if (!existsSync(source.path))
      throw new SignerCodeError(`--signer-wasm: no such file ${source.path}`, source);
    return new Uint8Array(readFileSync(source.path));
  }
  const cached = home === null ? undefined : cachedSignerPath(home, source);
  if (cached !== undefined && existsSync(cached)) return new Uint8Array(readFileSync(cached));
  let view: { code_base64?: string };
  try {
    // Loaded here: `shadebox node` imports this module for its flags, and only --signer-from needs a client.
    const { RpcClient } = await import('@shadebox/near-client');
    view = await new RpcClient([source.rpcUrl], 60_000).call('query', {
      request_type: 'view_code',
      finality: 'final',
      account_id: source.accountId,
    });
  } catch (err) {
    throw new SignerCodeError(
      `--signer-from: cannot read the code of ${source.accountId} from ${source.rpcUrl}: ${(err as Error).message}`,
      source,
      err,
    );
  }
  if (typeof view?.code_base64 !== 'string' || view.code_base64 === '') {
    throw new SignerCodeError(`--signer-from: ${source.accountId} has no code at ${source.rpcUrl}`, source);
  }
  const code = new Uint8Array(Buffer.from(view.code_base64, 'base64'));
  if (cached !== undefined) {
    mkdirSync(join(home as string, 'signer-code'), { recursive: true });
    writeFileSync(cached, code);
  }
  return code;
}
