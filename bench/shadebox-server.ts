/**
 * The Shadebox server process of the benchmark (spawned by shadebox-node.ts, never imported): starts an
 * in-memory node on 127.0.0.1 with a free port and prints one JSON ready line on stdout, the same shape as
 * `shadebox node --json`. It stops cleanly on SIGTERM/SIGINT (so `--cpu-prof` gets written) and when its
 * stdin closes (the benchmark died).
 */
import { startNode } from '@shadebox/node';

const node = await startNode({ memory: true, host: '127.0.0.1', rpcPort: 0 });
process.stdout.write(
  `${JSON.stringify({
    event: 'ready',
    rpcUrl: node.rpcUrl,
    chainId: node.chainId,
    pid: process.pid,
    accounts: node.accounts,
  })}\n`,
);

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  node
    .stop()
    .catch((error: unknown) => console.error('bench server: stop failed', error))
    .finally(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.on('error', shutdown);
process.stdin.resume();
