#!/bin/sh
':' //; unset NODE_EXTRA_CA_CERTS; export GLIBC_TUNABLES="${GLIBC_TUNABLES-glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=1048576}"; exec node --max-semi-space-size=2 --no-parallel-scavenge --no-concurrent-array-buffer-sweeping "$0" "$@"
// The `near-sandbox` executable: neard's command line for the sandbox harnesses (docs/near-sandbox.md). Runs
// its bundle (bundle/near-sandbox.js, made from the build, with V8's code cache; its start is measured), else the built entry
// (dist/near-sandbox/entry.js), or its TypeScript sources when it is not built or SHADEBOX_FROM_SOURCE=1 is
// set (see launch.js).
//
// The two lines above are read by sh when the file is run by its path, as the harnesses run it, and are a
// string and a comment to Node: sh drops NODE_EXTRA_CA_CERTS and runs this file with node. Node 20 reads that
// file of certificates as it starts, before any script runs (about 65 ms per start on the project's machine,
// measured with `node -e 0` with and without it), and `near-sandbox` never opens a TLS connection.
//
// sh also sets GLIBC_TUNABLES (unless it is set) to fixed glibc malloc thresholds: by default glibc raises its
// mmap threshold to the size of every large block freed (up to 32 MiB), after which Buffers of up to that size
// come from the main heap, and a long-running node's heap grew to 160 MiB of mostly free memory that is never
// given back (the soak, docs/architecture.md "Memory"). With the threshold fixed at 128 KiB and the heap
// trimmed past 1 MiB free, it stayed at 11-17 MiB.
//
// node runs with run-bundle.js's LAUNCH_FLAGS: a new space of at most 2 MiB per semi-space (16 by default), which
// V8 otherwise grows to 32 MiB under load and keeps, in the node's thread and in each view worker's, collected
// without V8's helper threads (see run-bundle.js).
const { launch } = require('./launch.js');

launch(
  'near-sandbox',
  '../dist/near-sandbox/entry.js',
  '../src/near-sandbox/entry.ts',
  '../bundle/near-sandbox.js',
  // `init` writes a home without the node: its own small bundle (src/near-sandbox/init-main.ts) starts faster.
  { bundle: '../bundle/near-sandbox-init.js', when: (argv) => argv.includes('init') },
);
