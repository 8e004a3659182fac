/** The pure cryptography behind NEAR's math host functions; gas is charged by the caller. */
export * from './alt-bn128.js';
export * from './bls12-381.js';
export * from './ecrecover.js';
export * from './ed25519-verify.js';
export * from './hashes.js';
export * from './ml-dsa-verify.js';
export * from './p256-verify.js';
