/**
 * @shadebox/cli — the `shadebox` command line. Programs embed a node with `startNode` from @shadebox/node;
 * this package exports the CLI itself for wrappers and tests, and how it finds, starts and asks its local EVM
 * chain (anvil) for tests and the benchmarks that run one of their own.
 */
export { MAIN_HELP, runCli } from './cli.js';
export { type CliIo, processIo } from './cli-io.js';
/** The local dstack (a simulated guest agent, not a TEE): docs/tee.md. */
export * as dstack from './dstack/index.js';
export { evmRpc } from './evm/evm-rpc.js';
export { type AnvilLocation, anvilPackageName, locateAnvil } from './evm/locate-anvil.js';
export {
  ANVIL_DEFAULT_CHAIN_ID,
  AnvilStartError,
  type RunningAnvil,
  type StartAnvilOptions,
  startAnvil,
} from './evm/start-anvil.js';
export { type ReadyEvent, readyEvent } from './print-ready.js';
export { UsageError } from './usage-error.js';
