/**
 * Where the CLI keeps its state when no `--home` is given: `./.shadebox` (relative to the current directory)
 * is the stack's home for `shadebox up`, and the node's home is its `node/` folder, so `shadebox node` and
 * `shadebox up` run the same chain by default.
 */
import { join, resolve } from 'node:path';

/** The stack home of `shadebox up`. */
export const DEFAULT_STACK_HOME = '.shadebox';

/** The node home inside a stack home. */
export const NODE_SUBDIR = 'node';

/** The node home of `shadebox node` and `shadebox node init`: `./.shadebox/node`. */
export const DEFAULT_NODE_HOME = join(DEFAULT_STACK_HOME, NODE_SUBDIR);

/** The node home of a stack home, absolute. */
export function nodeHomeOf(stackHome: string): string {
  return resolve(stackHome, NODE_SUBDIR);
}
