#!/bin/sh
':' //; [ "$1" = node ] && case " $* " in *' --signer-from'*) ;; *) unset NODE_EXTRA_CA_CERTS ;; esac; export GLIBC_TUNABLES="${GLIBC_TUNABLES-glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=1048576}"; exec node --max-semi-space-size=2 --no-parallel-scavenge --no-concurrent-array-buffer-sweeping "$0" "$@"
// The `shadebox` executable: runs its bundle (bundle/shadebox.js, made from the build, with V8's code cache),
// else the built CLI (dist/main.js), or its TypeScript sources when it is not built or SHADEBOX_FROM_SOURCE=1 is
// set (see launch.js).
//
// The two lines above are read by sh when the file is run by its path (npx, node_modules/.bin), and are a string
// and a comment to Node: for `shadebox node`, sh drops NODE_EXTRA_CA_CERTS, then runs this file with node. Node 20
// reads that file of certificates as it starts, before any script runs (60-90 ms per start on the project's
// machine, docs/near-sandbox.md), and `shadebox node` opens no TLS connection unless --signer-from fetches a
// signer from a NEAR RPC (then the variable stays). Every other command keeps it.
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

launch('shadebox', '../dist/main.js', '../src/main.ts', '../bundle/shadebox.js');
