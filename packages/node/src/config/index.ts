/** The node's configuration layer: protocol parameters, genesis, config.json, key files, the home directory. */
export * from './config-file-error.js';
export * from './fees.js';
export * from './genesis.js';
export * from './genesis-account.js';
export * from './genesis-defaults.js';
export * from './genesis-json.js';
export * from './genesis-storage.js';
export * from './genesis-time.js';
export * from './genesis-validation.js';
export * from './home-lock.js';
export * from './init-home.js';
export * from './node-config.js';
export * from './protocol-config-view.js';
export * from './protocol-version.js';
export * from './runtime-config.js';
