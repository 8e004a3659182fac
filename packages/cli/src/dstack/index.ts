/** The local dstack: a simulated guest agent (not a TEE) for the agent API's dstack mode. */
export { type AppCompose, appComposeOf } from './app-compose.js';
export { DEFAULT_ROOT_KEY, deriveKey } from './derive-key.js';
export {
  DSTACK_RUNTIME_EVENT_TYPE,
  type EventLogEntry,
  replayRtmr,
  runtimeDigestsHold,
  runtimeEvent,
  runtimeEventDigest,
} from './event-log.js';
export { DstackSocketError, type RunningDstackServer, startDstackServer } from './server.js';
export {
  DEFAULT_MEASUREMENTS,
  DEFAULT_PPID,
  DstackRequestError,
  DstackSimulator,
  type DstackSimulatorOptions,
} from './simulator.js';
export {
  type DecodedTdxQuote,
  decodeTdxQuote,
  encodeTdxQuote,
  OFFSETS as TDX_QUOTE_OFFSETS,
} from './tdx-quote.js';
