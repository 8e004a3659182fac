/**
 * Runs the Python client's tests (python/tests) so that `npm test` includes them:
 * `python3 -m unittest discover -s python/tests -v` from the repository root, which must exit 0 and report
 * at least one test run.
 *
 * The tests against the real agent API (ClientAgainstServiceTest) are skipped unless the environment variable
 * SHADEBOX_AGENT_API_URL holds the service's base URL (e.g. `http://127.0.0.1:3140/api/agent`); the child
 * inherits this process's environment, so setting it here (or in an end-to-end test that starts the service
 * and then spawns this command with it) wires them in. SHADEBOX_AGENT_API_READY_TIMEOUT (seconds) bounds
 * their wait for the service to be ready.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const python = process.env.PYTHON ?? 'python3';
const available = spawnSync(python, ['--version'], { encoding: 'utf8' }).status === 0;

it('python client: unittest discover -s python/tests passes', {
  skip: available ? false : `${python} not found`,
  timeout: 600_000,
}, () => {
  const result = spawnSync(python, ['-m', 'unittest', 'discover', '-s', 'python/tests', '-v'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 600_000,
  });
  const output = `${result.stdout}\n${result.stderr}`;
  assert.equal(result.status, 0, `python tests failed:\n${output}`);
  const ran = /^Ran (\d+) tests? in /m.exec(output);
  assert.ok(ran, `no "Ran N tests" line in:\n${output}`);
  assert.ok(Number(ran[1]) > 0, `no Python tests ran:\n${output}`);
  const skipped = /skipped=(\d+)/.exec(output);
  console.log(`python: ${ran[1]} tests ran, ${skipped ? skipped[1] : 0} skipped`);
});
