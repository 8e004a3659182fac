import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROTOCOL_VERSION } from '@shadebox/node';
import { SANDBOX_PROTOCOL_VERSION, versionLine } from './main.js';

test("--version names the node's protocol version (kept here to start without loading the node)", () => {
  assert.equal(SANDBOX_PROTOCOL_VERSION, PROTOCOL_VERSION);
  assert.match(versionLine(), /\(protocol 86\)/);
});
