/** Local mode: no TEE. The agent key is the random bytes; registration is `register_agent({codehash})`. */
import type { TeeProvider } from './provider.js';
import { TeeError } from './tee-error.js';

export function localProvider(): TeeProvider {
  return {
    mode: 'local',
    async agentSeed(random) {
      return Uint8Array.from(random);
    },
    async registrationArgs(_accountId, codehash) {
      if (!codehash)
        throw new TeeError(
          'local registration needs AGENT_CODEHASH: set it to a codehash approved in the agent contract',
          'local',
        );
      return { codehash };
    },
    isRegistered(record, args) {
      return (record as { codehash?: unknown })?.codehash === args.codehash;
    },
  };
}
