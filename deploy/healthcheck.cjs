// The image's HEALTHCHECK (deploy/Containerfile): healthy when the agent API's GET /health answers 200, which it
// does once the agent is registered (503 while it boots). Reads the port and host the agent API reads.
const configured = process.env.AGENT_API_HOST ?? '';
const host = ['', '0.0.0.0', '::'].includes(configured) ? '127.0.0.1' : configured;
const port = process.env.AGENT_API_PORT || process.env.SHADE_AGENT_PORT || '3140';
const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/health`;
// What it saw goes to stdout: the engine keeps it in the container's health log.
fetch(url, { signal: AbortSignal.timeout(2500) }).then(
  (response) => {
    process.stdout.write(`${url}: ${response.status}\n`);
    process.exit(response.status === 200 ? 0 : 1);
  },
  (error) => {
    process.stdout.write(`${url}: ${error.cause?.message ?? error.message}\n`);
    process.exit(1);
  },
);
