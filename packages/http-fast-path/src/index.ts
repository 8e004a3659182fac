export {
  createFastPathServer,
  type FastAnswer,
  type FastHandler,
  type FastPathOptions,
} from './fast-path-server.js';
export { type FrontDoor, listen, listenBehindFastPath } from './front-door.js';
export {
  MAX_BODY_BYTES,
  MAX_HEAD_BYTES,
  parseSimpleRequest,
  type SimpleRequest,
  type SimpleRequestRule,
} from './parse-simple-request.js';
