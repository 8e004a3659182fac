/** Runs `near-sandbox` with this process's arguments (imported by bin/near-sandbox.js). */
import { main } from './main.js';

await main();
