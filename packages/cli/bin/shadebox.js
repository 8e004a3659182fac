#!/bin/sh
':' //; [ "$1" = node ] && case " $* " in *' --signer-from'*) ;; *) unset NODE_EXTRA_CA_CERTS ;; esac; exec node "$0" "$@"
// The `shadebox` executable: runs its bundle (bundle/shadebox.js, made from the build, with V8's code cache),
// else the built CLI (dist/main.js), or its TypeScript sources when it is not built or SHADEBOX_FROM_SOURCE=1 is
// set (see launch.js).
//
// The two lines above are read by sh when the file is run by its path (npx, node_modules/.bin), and are a string
// and a comment to Node: for `shadebox node`, sh drops NODE_EXTRA_CA_CERTS, then runs this file with node. Node 20
// reads that file of certificates as it starts, before any script runs (60-90 ms per start on the project's
// machine, docs/near-sandbox.md), and `shadebox node` opens no TLS connection unless --signer-from fetches a
// signer from a NEAR RPC (then the variable stays). Every other command keeps it.
const { launch } = require('./launch.js');

launch('shadebox', '../dist/main.js', '../src/main.ts', '../bundle/shadebox.js');
