/**
 * Where the `shadebox` executable is: beside the `launch` module `@shadebox/cli` exports (its bin/ folder),
 * run with the current Node, as the CLI's own tests run it. An explicit path is run as it is.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Command {
  file: string;
  /** Arguments before the CLI's own. */
  prefix: string[];
}

export function shadeboxCommand(bin?: string): Command {
  if (bin !== undefined) return { file: bin, prefix: [] };
  const launch = createRequire(import.meta.url).resolve('@shadebox/cli/launch');
  return { file: process.execPath, prefix: [join(dirname(launch), 'shadebox.js')] };
}
