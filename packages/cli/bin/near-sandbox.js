#!/usr/bin/env node
// The `near-sandbox` executable: neard's command line for the sandbox harnesses (docs/near-sandbox.md). Runs
// its bundle (bundle/near-sandbox.js, made from the build; its start is measured), else the built entry
// (dist/near-sandbox/entry.js), or its TypeScript sources when it is not built or SHADEBOX_FROM_SOURCE=1 is
// set (see launch.js).
import { launch } from './launch.js';

await launch(
  'near-sandbox',
  '../dist/near-sandbox/entry.js',
  '../src/near-sandbox/entry.ts',
  '../bundle/near-sandbox.js',
);
