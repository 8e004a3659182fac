/**
 * More agent APIs for the `agent` phase (spawned by metrics/agent.ts, never imported): `argv[2]` agent APIs in
 * this one process, each a separate agent account funded by and registered through the environment's funding
 * account (CHAIN_ACCOUNT_ID, CHAIN_ACCOUNT_SECRET_KEY, AGENT_CONTRACT_ID, NEAR_RPC_URL, AGENT_CODEHASH: what
 * `shadebox up` gives its own). Started one after another (they fund from one key), then one JSON line
 * `{"event":"ready","agents":[{"url","accountId"}]}`. Stops when its stdin ends or on SIGTERM.
 */
import { loadAgentApiConfig, type RunningAgentApi, startAgentApi } from '@shadebox/agent-api';

const count = Number(process.argv[2] ?? 1);
const quiet = { info: () => undefined, warn: () => undefined, error: console.error };
const apis: RunningAgentApi[] = [];
const agents: { url: string; accountId: string }[] = [];
for (let i = 0; i < count; i++) {
  const api = await startAgentApi(
    loadAgentApiConfig({ ...process.env, AGENT_API_PORT: '0', TEE_MODE: 'local' }),
    {
      log: quiet,
    },
  );
  apis.push(api);
  agents.push({ url: api.url, accountId: await api.onReady() });
}
process.stdout.write(`${JSON.stringify({ event: 'ready', agents })}\n`);

const stop = () => Promise.allSettled(apis.map((a) => a.stop())).finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
