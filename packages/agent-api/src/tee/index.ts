export { dstackProvider } from './dstack.js';
export { localProvider } from './local.js';
export type { TeeProvider } from './provider.js';
export { TeeError } from './tee-error.js';
