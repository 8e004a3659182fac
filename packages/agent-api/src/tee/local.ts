/** Local mode: no TEE. The agent key is the random bytes; registration is `register_agent({codehash})`. */
import type { TeeProvider } from './provider.js';

export function localProvider(): TeeProvider {
  return {
    mode: 'local',
    async agentSeed(random) {
      return Uint8Array.from(random);
    },
    async registrationArgs(_accountId, codehash) {
      if (!codehash) throw new Error('local registration needs AGENT_CODEHASH');
      return { codehash };
    },
    isRegistered(record, args) {
      return (record as { codehash?: unknown })?.codehash === args.codehash;
    },
  };
}
