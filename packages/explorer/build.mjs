#!/usr/bin/env node
// Bundles the explorer page into dist/: app.js (esbuild, minified, one file), live.js (the worker holding the
// live head's event stream: src/live-worker.ts), index.html and style.css, and
// prints their sizes (raw and gzip). The node serves dist/ at /explorer; nothing is fetched from elsewhere.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'dist');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: join(here, 'src/main.ts'), live: join(here, 'src/live-worker.ts') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'style.css']) copyFileSync(join(here, 'src', file), join(out, file));
if (!process.argv.includes('--quiet')) {
  for (const file of ['app.js', 'live.js', 'style.css', 'index.html']) {
    const bytes = readFileSync(join(out, file));
    process.stdout.write(`explorer: dist/${file} ${bytes.length} bytes, ${gzipSync(bytes).length} gzipped\n`);
  }
}
