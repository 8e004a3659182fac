/**
 * The executable entry of `shadebox`: runs the command line of this process and exits with its code.
 * `bin/shadebox.js` runs its bundle or the built copy (dist/main.js); tests and development run this file through
 * tsx.
 */
import { main } from './shadebox-main.js';

await main();
