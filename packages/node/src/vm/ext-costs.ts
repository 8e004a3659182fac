/** Gas of each host-function operation, by nearcore's `ExtCosts` name (from the pinned parameters). */
import type { RuntimeConfig } from '../config/runtime-config.js';

export type ExtCosts = RuntimeConfig['wasm']['extCosts'];
