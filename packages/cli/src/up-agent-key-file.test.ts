/** `shadebox up --agent-key-file` / AGENT_KEY_FILE: a malformed key file stops up before it starts anything. */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliInProcess as runCli, tempDir } from '../test-support/cli-in-process.js';

const SECRET =
  'ed25519:3D4YudUahN1nawWogh8pAKSj92sUNMdbZGjn7kERKzYoTy8tnFQuwoGUC51DowKqorvkr2pytJSnwuSbsNVfqygr';

describe('shadebox up: the agent key file', () => {
  for (const [how, args, env] of [
    ['--agent-key-file', ['--agent-key-file', 'key.json'], {}],
    ['AGENT_KEY_FILE', [], { AGENT_KEY_FILE: 'key.json' }],
  ] as const) {
    it(`refuses a malformed file given by ${how} (exit 1, the file named, not its key)`, async () => {
      const cwd = await tempDir();
      writeFileSync(join(cwd, 'key.json'), JSON.stringify({ public_key: 'ed25519:x', secret_key: SECRET }));
      const { code, stdout, stderr } = await runCli(['up', '--rpc-port', '0', ...args], { cwd, env });
      assert.equal(code, 1, stderr);
      assert.equal(stdout, '');
      assert.match(
        stderr,
        /^shadebox up: error: AGENT_KEY_FILE: \/.*key\.json: "public_key" is not the public key of "secret_key"\n$/,
      );
      assert.ok(!stderr.includes(SECRET.slice(8, 40)));
      assert.ok(!existsSync(join(cwd, '.shadebox')), 'no home was created');
    });
  }

  it('refuses a file in a folder that does not exist', async () => {
    const cwd = await tempDir();
    const { code, stderr } = await runCli(['up', '--agent-key-file', 'no/such/key.json'], { cwd });
    assert.equal(code, 1);
    assert.match(stderr, /AGENT_KEY_FILE: .*no\/such\/key\.json: its directory does not exist/);
  });
});
