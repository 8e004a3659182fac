/**
 * @shadebox/mpc — NEAR chain signatures locally: NEAR's key derivation, signatures in the signer's response
 * format, root keys kept in the home directory, foreign-chain addresses and the MPC responder.
 */
export * from './addresses.js';
export * from './derivation.js';
export * from './responder/index.js';
export * from './root-keys.js';
export * from './signing.js';
