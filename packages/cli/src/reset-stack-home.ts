/**
 * `shadebox up --reset`: deletes the stack home, but only one that looks like shadebox made it (it holds
 * nothing but the folders shadebox writes there), so a mistyped `--home ~` never wipes a real directory, and
 * never while a node runs on it (its home lock names the process).
 */
import { promises as fsPromises } from 'node:fs';
import { ShadeboxError } from '@shadebox/errors';
import { describeHolder, HomeInUseError, homeLockHolder } from '@shadebox/node/config';
import { NODE_SUBDIR, nodeHomeOf } from './default-homes.js';
import { STACK_RECORD_FILE } from './stack-record.js';

/** The entries shadebox creates in a stack home (a stack killed without a clean stop leaves its record). */
const STACK_ENTRIES: ReadonlySet<string> = new Set([NODE_SUBDIR, STACK_RECORD_FILE]);

/** A stack home that `--reset` refuses to delete. */
export class UnsafeResetError extends ShadeboxError<{ dir: string; reason: string }> {
  constructor(
    readonly dir: string,
    reason: string,
  ) {
    super(
      `refusing to delete ${dir} for --reset: ${reason}; name the stack home with --home, or delete it yourself`,
      {
        details: { dir, reason },
        docsPath: 'docs/cli.md',
      },
    );
  }
}

/** Deletes `dir` (absolute) if it is a stack home whose node is not running; does nothing if it does not
 * exist. */
export async function resetStackHome(dir: string): Promise<void> {
  const info = await fsPromises.stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (info === null) return;
  if (!info.isDirectory()) throw new UnsafeResetError(dir, 'it is not a directory');
  const foreign = (await fsPromises.readdir(dir)).filter((name) => !STACK_ENTRIES.has(name));
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 5).join(', ') + (foreign.length > 5 ? ', ...' : '');
    const hint = foreign.includes('genesis.json')
      ? `; it looks like a node home: --home names the stack home, whose node home is ${dir}/${NODE_SUBDIR}`
      : '';
    throw new UnsafeResetError(dir, `it holds entries shadebox did not create (${shown})${hint}`);
  }
  // A running node keeps serving from deleted files and loses everything when it stops.
  const holder = homeLockHolder(nodeHomeOf(dir));
  if (holder !== null) {
    const advice = new HomeInUseError(nodeHomeOf(dir), holder).advice;
    throw new UnsafeResetError(dir, `its node is running: ${describeHolder(holder)}; ${advice}`);
  }
  await fsPromises.rm(dir, { recursive: true, force: true });
}
