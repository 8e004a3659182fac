/**
 * @shadebox/testing — a harness for agent code's own tests: `startStack()` runs a whole Shadebox stack (NEAR
 * node, chain signatures, agent API, local EVM chain) on free ports with a temporary home, `snapshot()` /
 * `revert()` take both chains back between tests, `stop()` ends it. `useStack()` wires it into a test
 * framework's hooks. See README.md.
 */
export { StackStartError, UnknownSnapshotError } from './errors.js';
export { EvmRpcError } from './evm-rpc.js';
export type { AgentAddresses, EvmEndpoint, KeyedAccount, KeyString } from './ready-lines.js';
export { DEFAULT_START_TIMEOUT_MS, type StartStackOptions } from './stack-options.js';
export type { ProcessExit } from './stack-process.js';
export { type Stack, startStack } from './start-stack.js';
export { type StackHooks, useStack } from './use-stack.js';
