// The example app of deploy/docker-compose.yaml and deploy/compose.local.yaml: the agent's own code, in its own
// container beside the agent API's. It asks the agent API for a signature with the TypeScript client
// (@shadebox/client, AGENT_API_URL), prints it as one JSON line, and exits 0. While the agent registers, the agent
// API answers 503 not_ready: it asks again each second.
import { AgentApiError, AgentApiUnreachableError, createAgentClient, toRsvHex } from '@shadebox/client';

const client = createAgentClient();
const path = process.env.SIGN_PATH || 'ethereum-1';
// Any 32-byte hash: here sha256("shadebox example app").
const payload = '0e8f4f1225a9ae910f221c591b88a9354cc7486f0789c121400f345a3c055e01';

for (;;) {
  try {
    const { accountId } = await client.agentAccountId();
    const signature = await client.requestSignature({ path, payload, keyType: 'Ecdsa' });
    process.stdout.write(
      `${JSON.stringify({ event: 'signature', agentAccountId: accountId, path, payload, rsv: toRsvHex(signature) })}\n`,
    );
    break;
  } catch (error) {
    const waiting =
      error instanceof AgentApiUnreachableError || (error instanceof AgentApiError && error.status === 503);
    if (!waiting) throw error;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
