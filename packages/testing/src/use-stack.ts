/**
 * `useStack(hooks)`: one stack for a suite, through the test framework's own hooks, so that it works with
 * node:test (`{ before, after, beforeEach }`) and vitest (`{ before: beforeAll, after: afterAll, beforeEach }`)
 * alike. With `beforeEach`, every test starts from the state the stack had once it was ready.
 */

import type { StartStackOptions } from './stack-options.js';
import { type Stack, startStack } from './start-stack.js';

type Hook = (fn: () => Promise<void>) => unknown;

export interface StackHooks {
  /** Runs once before the suite's tests: node:test's `before`, vitest's `beforeAll`. */
  before: Hook;
  /** Runs once after them: node:test's `after`, vitest's `afterAll`. */
  after: Hook;
  /** When given, both chains are reverted to the ready state before each test. */
  beforeEach?: Hook;
}

/** Registers the hooks; the returned function gives the running stack inside tests. */
export function useStack(hooks: StackHooks, options: StartStackOptions = {}): () => Stack {
  let stack: Stack | undefined;
  let clean: string | undefined;
  hooks.before(async () => {
    stack = await startStack(options);
    if (hooks.beforeEach) clean = await stack.snapshot();
  });
  hooks.beforeEach?.(async () => {
    if (stack !== undefined && clean !== undefined) await stack.revert(clean);
  });
  hooks.after(async () => {
    await stack?.stop();
    stack = undefined;
  });
  return () => {
    if (stack === undefined)
      throw new Error('useStack: the stack runs only inside the suite (after its before hook)');
    return stack;
  };
}
