/** The node's configuration layer: protocol parameters, genesis, config.json, key files, the home directory. */
export * from './config-file-error.js';
export * from './genesis.js';
export * from './init-home.js';
export * from './node-config.js';
export * from './protocol-config-view.js';
export * from './runtime-config.js';
