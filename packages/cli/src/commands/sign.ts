/**
 * `shadebox sign PATH PAYLOAD`: a chain signature through the agent API (`/call` `request_signature`, with
 * @shadebox/client), as agent code gets one: by default from the running stack the home names (its
 * stack.json), or from `--agent-api URL`.
 */
import { resolve } from 'node:path';
import { ShadeboxError } from '@shadebox/errors';
import { parseFlagsAndArgs, textFlag } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { DEFAULT_STACK_HOME } from '../default-homes.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { jsonText } from '../inspect/run-inspection.js';
import { formatRows } from '../inspect/text-table.js';
import { readStackRecord, STACK_RECORD_FILE } from '../stack-record.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox sign';

export const SIGN_HELP = `Usage: shadebox sign PATH PAYLOAD [--key-type Ecdsa|Eddsa] [--agent-api URL] [--home DIR] [--json]

Asks the agent API for a chain signature of PAYLOAD under the key derived for the agent contract and PATH
(e.g. ethereum-1): a /call of the agent contract's request_signature, as agent code does, paid by the agent
account. PAYLOAD is hex, with or without 0x: 32 bytes for Ecdsa (a transaction or message hash), 32 to 1232
bytes for Eddsa. 'shadebox derive AGENT_CONTRACT PATH --chain evm' gives the address it recovers to.
Prints r, s and v (27 + the recovery id) for Ecdsa, the 64-byte signature for Eddsa.
With --json: {"path":...,"keyType":"Ecdsa","payload":...,"r":"0x…","s":"0x…","v":27|28,"recoveryId":0|1,
"signature":"0x<r><s><v>"} or {"path":...,"keyType":"Eddsa","payload":...,"signature":"0x<64 bytes>"}.

Options:
  --key-type T   Ecdsa (secp256k1, default) or Eddsa (ed25519)
  --agent-api URL
                 the agent API, e.g. http://127.0.0.1:3140/api/agent (a URL without a path gets /api/agent)
                 (default: the agent API of the running stack the home names: <home>/${STACK_RECORD_FILE},
                 written by 'shadebox up'; 'shadebox up --memory' has no home, so name it with this flag)
  --home DIR     the stack home (default ./.shadebox)
  --json         print the fields as JSON, for scripts
  -h, --help     show this help

Exit codes: 0 signed, 1 the agent API refused or did not answer (or no running stack), 2 bad command line.
`;

const OPTIONS = {
  'key-type': { type: 'string' },
  'agent-api': { type: 'string' },
  home: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** No agent API to ask: no running stack in the home and no `--agent-api`. */
class NoAgentApiError extends ShadeboxError {}

export async function signCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { flags, positionals } = parseFlagsAndArgs(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(SIGN_HELP);
    return EXIT_OK;
  }
  const [path, payloadText, extra] = positionals;
  if (path === undefined || payloadText === undefined)
    throw new UsageError(COMMAND, 'expected PATH and PAYLOAD');
  if (extra !== undefined) throw new UsageError(COMMAND, `unexpected argument '${extra}'`, extra);
  const keyType = flags['key-type'] ?? 'Ecdsa';
  if (keyType !== 'Ecdsa' && keyType !== 'Eddsa') {
    throw new UsageError(
      COMMAND,
      `invalid value '${keyType}' for --key-type: expected Ecdsa or Eddsa, spelled as shown`,
      '--key-type',
    );
  }
  const digits = /^0x/i.test(payloadText) ? payloadText.slice(2) : payloadText;
  if (digits === '' || !/^[0-9a-fA-F]*$/.test(digits) || digits.length % 2 !== 0) {
    throw new UsageError(
      COMMAND,
      `invalid PAYLOAD '${payloadText.slice(0, 80)}': expected hex bytes (an even number of 0-9 a-f, 0x allowed)`,
      payloadText,
    );
  }
  const payload = digits.toLowerCase();
  const agentApiFlag =
    flags['agent-api'] === undefined
      ? undefined
      : agentApiUrl(textFlag(COMMAND, '--agent-api', flags['agent-api']));

  const client = await import('@shadebox/client');
  let url: string | undefined;
  try {
    url = agentApiFlag ?? agentApiOfHome(resolve(io.cwd, flags.home ?? DEFAULT_STACK_HOME));
    const api = client.createAgentClient({ baseUrl: url });
    if (keyType === 'Ecdsa') {
      const response = await api.requestSignature({ path, payload, keyType });
      const { r, s, yParity } = client.toEvmSignature(response);
      const v = 27 + yParity;
      if (flags.json) {
        io.stdout.write(
          jsonText({
            path,
            keyType,
            payload: `0x${payload}`,
            r,
            s,
            v,
            recoveryId: yParity,
            signature: client.toRsvHex(response),
          }),
        );
      } else {
        io.stdout.write(
          formatRows([
            ['r', r],
            ['s', s],
            ['v', `${v}  (recovery id ${yParity})`],
          ]),
        );
      }
    } else {
      const response = await api.requestSignature({ path, payload, keyType });
      const signature = `0x${Buffer.from(client.toSolanaSignature(response)).toString('hex')}`;
      if (flags.json) {
        io.stdout.write(jsonText({ path, keyType, payload: `0x${payload}`, signature }));
      } else {
        io.stdout.write(formatRows([['signature', signature]]));
      }
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof client.AgentApiUnreachableError) {
      io.stderr.write(
        `${COMMAND}: error: no answer from the agent API at ${url}; is the stack running? Start it with 'shadebox up', or pass --agent-api URL\n`,
      );
      return EXIT_FAILURE;
    }
    if (error instanceof ShadeboxError) {
      io.stderr.write(`${COMMAND}: error: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    throw error;
  }
}

/** `--agent-api`: an http(s) URL; one without a path is the agent API's base path on that host. */
function agentApiUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      COMMAND,
      `invalid value '${text}' for --agent-api: expected an http:// or https:// URL such as http://127.0.0.1:3140/api/agent`,
      '--agent-api',
    );
  }
  if (url.pathname === '/') return `${url.origin}/api/agent`;
  return text.replace(/\/+$/, '');
}

/** The agent API of the running stack in `stackHome`, from its record. */
function agentApiOfHome(stackHome: string): string {
  let found: ReturnType<typeof readStackRecord>;
  try {
    found = readStackRecord(stackHome);
  } catch (error) {
    throw new NoAgentApiError(`${(error as Error).message}; pass --agent-api URL`);
  }
  if (found === null) {
    throw new NoAgentApiError(
      `no running stack in ${stackHome} (no ${STACK_RECORD_FILE}): start one with 'shadebox up' (with --home DIR for another home), or pass --agent-api URL; 'shadebox up --memory' has no home, so with it pass --agent-api (its ready line's agentApiUrl)`,
    );
  }
  if (!found.running) {
    throw new NoAgentApiError(
      `the stack recorded in ${found.path} (pid ${found.record.pid}) is not running: start it with 'shadebox up', or pass --agent-api URL`,
    );
  }
  if (found.record.agentApiUrl === '') {
    throw new NoAgentApiError(`${found.path} names no agent API: pass --agent-api URL`);
  }
  return found.record.agentApiUrl;
}
