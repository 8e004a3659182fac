#!/usr/bin/env node
// The `shadebox` executable: runs the built CLI (dist/main.js), or its TypeScript sources when it is not
// built or SHADEBOX_FROM_SOURCE=1 is set (see launch.js).
import { launch } from './launch.js';

await launch('shadebox', '../dist/main.js', '../src/main.ts');
