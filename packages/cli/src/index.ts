/**
 * @shadebox/cli — the `shadebox` command line. Programs embed a node with `startNode` from @shadebox/node;
 * this package exports the CLI itself for wrappers and tests.
 */
export { MAIN_HELP, runCli } from './cli.js';
export { type CliIo, processIo } from './cli-io.js';
export { type AnvilLocation, anvilPackageName, locateAnvil } from './evm/locate-anvil.js';
export { type ReadyEvent, readyEvent } from './print-ready.js';
export { UsageError } from './usage-error.js';
