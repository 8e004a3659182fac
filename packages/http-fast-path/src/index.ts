export {
  createFastPathServer,
  type FastAnswer,
  type FastHandler,
  type FastPathOptions,
  type FastPathServer,
  SHUTTING_DOWN,
} from './fast-path-server.js';
export { DEFAULT_STOP_GRACE_MS, type FrontDoor, listen, listenBehindFastPath } from './front-door.js';
export {
  MAX_BODY_BYTES,
  MAX_HEAD_BYTES,
  parseSimpleRequest,
  type SimpleRequest,
  type SimpleRequestRule,
} from './parse-simple-request.js';
