/** The CLI's version, from packages/cli/package.json (one folder up from both src/ and dist/). */
import { readFileSync } from 'node:fs';

export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
