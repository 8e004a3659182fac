// Bundles the agent API as the container image runs it: `shadebox agent` (packages/cli/src/commands/agent.ts,
// configured by environment as docs/agent-api.md says) and everything it imports, in one CommonJS file that
// Node runs with no node_modules beside it. Reads the built dist/ (run `tsc -b` first).
//
// esbuild's output depends only on its input files and its own version (pinned by package-lock.json), so the
// same commit gives the same bytes: the image's layer holding the bundle is reproducible.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'packages', 'cli');

// The entry: the agent command with the process's arguments, its exit code the process's. As the CLI does, a
// stray handle cannot keep the process alive once the command returned (after SIGTERM, the API stopped).
const ENTRY = `
import { agentCommand } from './dist/commands/agent.js';
agentCommand(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; setTimeout(() => process.exit(code), 2000).unref(); },
  (error) => { process.stderr.write('shadebox agent: internal error: ' + (error?.stack ?? String(error)) + '\\n'); process.exit(1); },
);
`;

// agent.ts takes only createLogger from @shadebox/node; importing the package's index would bring the whole
// node (and lmdb, a native addon) into the bundle. A new import from @shadebox/node fails the bundle loudly.
const loggerOnly = {
  name: 'node-logger-only',
  setup(build) {
    build.onResolve({ filter: /^@shadebox\/node$/ }, () => ({
      path: join(root, 'packages', 'node', 'dist', 'logger.js'),
    }));
  },
};

/** Writes the bundle to `outFile`; returns its size in bytes. */
export async function bundleAgentApi(outFile) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: cli, loader: 'js', sourcefile: 'agent-image-entry.js' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    minifyWhitespace: true,
    legalComments: 'none',
    plugins: [loggerOnly],
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  if (/\brequire\("lmdb"\)/.test(code)) throw new Error('bundle-agent-api: the bundle requires lmdb');
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, code);
  return Buffer.byteLength(code);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? join(root, 'deploy', 'build', 'agent-api.cjs');
  const size = await bundleAgentApi(out);
  console.error(`bundle-agent-api: ${out} (${Math.round(size / 1024)} KiB)`);
}
