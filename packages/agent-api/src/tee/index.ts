export { dstackProvider } from './dstack.js';
export {
  COLLATERAL_FIELDS,
  type DstackAttestation2,
  dstackAttestation2,
  reportDataFor,
} from './dstack-attestation.js';
export { localProvider } from './local.js';
export type { TeeProvider } from './provider.js';
export { TeeError } from './tee-error.js';
