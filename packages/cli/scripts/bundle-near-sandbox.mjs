// The earlier name of scripts/bundle-cli.mjs, kept for the callers that run it (bench/metrics/near-sandbox-start.ts):
// bundles both executables, `shadebox` and `near-sandbox`.
import { main } from './bundle-cli.mjs';

await main();
