/**
 * A baseline for the read benchmark: the same load against bench/echo-server.ts, a Node HTTP server that does
 * nothing but answer. It is the most any single-threaded node:http server can serve on this machine with this
 * generator (its CPU per request is the HTTP stack's own cost); the rate anvil reaches shows the generator
 * itself goes higher.
 */
import type { LoadResult } from '../load.js';
import { spawnTracked } from '../processes.js';
import { parseReadyLine, REPO_ROOT } from '../shadebox-node.js';
import { measureReadThroughput, type ReadThroughputOptions, viewAccountBody } from './read-throughput.js';

export async function measureNoopNodeServer(options: ReadThroughputOptions): Promise<LoadResult> {
  const child = spawnTracked(process.execPath, ['--import', 'tsx', `${REPO_ROOT}/bench/echo-server.ts`], {
    cwd: REPO_ROOT,
    keepStdinOpen: true,
  });
  try {
    const { value } = await child.waitForLine(parseReadyLine, 20_000);
    return await measureReadThroughput(value.rpcUrl, child.pid, viewAccountBody('test.near'), options);
  } finally {
    await child.stop();
  }
}
