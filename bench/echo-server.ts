/**
 * A trivial JSON-RPC server (spawned by metrics/noop-baseline.ts, never imported): it answers every POST with
 * one fixed, view_account-sized result after reading the body, and prints a ready line. Its rate under the
 * read load is the ceiling of a single-threaded node:http server on this machine.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = JSON.stringify({
  jsonrpc: '2.0',
  result: {
    amount: '1000000000000000000000000000000000',
    locked: '0',
    code_hash: '11111111111111111111111111111111',
    storage_usage: 182,
    storage_paid_at: 0,
    block_height: 1,
    block_hash: 'GCpFkQ9qdYGG9Zw8vWwvpg3hjc19q2d4vNzqTiY8WK5V',
  },
  id: 'bench',
});

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(answer);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ event: 'ready', rpcUrl: `http://127.0.0.1:${port}` })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
