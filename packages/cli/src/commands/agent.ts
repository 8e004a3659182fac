/**
 * `shadebox agent`: the agent API alone, configured by environment (docs/agent-api.md), against any NEAR
 * JSON-RPC endpoint. Runs until SIGINT/SIGTERM.
 */

import { createLogger } from '@shadebox/node';
import { parseFlags } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { resolveLogLevel } from '../log-level.js';
import { ShutdownSignal } from '../shutdown-signal.js';

const COMMAND = 'shadebox agent';

export const AGENT_HELP = `Usage: shadebox agent [--json]

Runs the agent API (POST /api/agent/getAccountId, /getBalance, /call, /view; GET /api/agent/health and
/api/agent/openapi.json) in the foreground. At boot it derives a random implicit agent account, funds it
with AGENT_FUNDING_AMOUNT (0.3 NEAR) from CHAIN_ACCOUNT_ID and registers it in the agent contract; until then every route but
health answers 503.

Configuration is by environment (docs/agent-api.md): CHAIN_ACCOUNT_ID and CHAIN_ACCOUNT_SECRET_KEY (or
CHAIN_ACCOUNT_SECRET_KEY_FILE, a file holding it: the way to pass it in production, docs/agent-api.md#production),
AGENT_CONTRACT_ID, NEAR_RPC_URL (comma-separated for failover), NEAR_RPC_TIMEOUT_MS (10000), AGENT_CODEHASH, AGENT_API_PORT (3140),
AGENT_API_HOST (127.0.0.1), TEE_MODE (local | dstack | auto), DSTACK_ENDPOINT, AGENT_KEY_POOL_SIZE (8),
AGENT_FUNDING_AMOUNT (0.3), AGENT_API_CORS_ORIGIN, AGENT_API_ALLOW_CONTRACTS, AGENT_API_RETRY_MAX_MS; the original tool's NEAR_ACCOUNT_ID, NEAR_SEED_PHRASE, NEXT_PUBLIC_contractId,
API_CODEHASH, SHADE_AGENT_PORT and NEAR_RPC_JSON are accepted too.

Options:
  --json      print {"event":"ready","agentApiUrl":...} on stdout when listening, and
              {"event":"agent-ready","agentAccountId":...} once registered
  -h, --help  show this help

Every missing or invalid setting is reported at once, before anything starts. A port in use names
AGENT_API_PORT: set it to another port, or 0 for a free one.

Exit codes: 0 stopped by a signal, 1 a missing or invalid setting or the port in use, 2 bad command line.
`;

const OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/**
 * Every missing or invalid variable at once: one line alone, else a line naming them all and one line each.
 */
export function describeConfigError(error: {
  message: string;
  problems: ReadonlyArray<{ variable: string; message: string }>;
}): string {
  const docs = 'see docs/agent-api.md#configuration-environment';
  if (error.problems.length <= 1) return `${COMMAND}: error: ${error.message} (${docs})\n`;
  const names = error.problems.map((p) => p.variable).join(', ');
  const lines = error.problems.map((p) => `  ${p.variable}: ${p.message}\n`).join('');
  return `${COMMAND}: error: ${error.problems.length} settings are missing or invalid: ${names} (${docs})\n${lines}`;
}

export async function agentCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const flags = parseFlags(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(AGENT_HELP);
    return EXIT_OK;
  }
  const json = flags.json === true;
  const { ConfigError, loadAgentApiConfig, startAgentApi } = await import('@shadebox/agent-api');
  let config: ReturnType<typeof loadAgentApiConfig> | undefined;
  try {
    config = loadAgentApiConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(describeConfigError(error));
      return EXIT_FAILURE;
    }
    throw error;
  }
  const log = createLogger('shadebox-agent', resolveLogLevel(COMMAND, json, io.env.SHADEBOX_LOG));
  // Signals from here on: a configuration error above returns without having touched the process.
  const shutdown = new ShutdownSignal();
  const agentContractId = config.agentContractId;
  let api: Awaited<ReturnType<typeof startAgentApi>>;
  try {
    api = await startAgentApi(config, { log });
    // The service keeps no reference to the configuration (the funding key): neither does this frame, which
    // lives as long as the process.
    config = undefined;
  } catch (error) {
    // A busy or forbidden port names AGENT_API_PORT (AgentApiListenError's message).
    shutdown.dispose();
    io.stderr.write(`${COMMAND}: error: ${(error as Error).message}\n`);
    return EXIT_FAILURE;
  }
  io.stdout.write(
    json
      ? `${JSON.stringify({ event: 'ready', agentApiUrl: api.url })}\n`
      : `Agent API listening on ${api.url}\n`,
  );
  api.onReady().then(
    (agentAccountId) => {
      if (shutdown.requested) return;
      io.stdout.write(
        json
          ? `${JSON.stringify({ event: 'agent-ready', agentAccountId })}\n`
          : `Agent account ${agentAccountId} registered in ${agentContractId}\n`,
      );
    },
    () => undefined,
  );
  await shutdown.received;
  await api.stop();
  return EXIT_OK;
}
