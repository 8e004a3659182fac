/**
 * The Python client's tests (python/tests) against a real `shadebox up --memory`: SHADEBOX_AGENT_API_URL
 * names the stack's agent API, so `ClientAgainstServiceTest` runs instead of being skipped. Asserts exit 0,
 * that every real-service test ran and passed, and that nothing was skipped.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { CliProcess, REPO_ROOT } from '../packages/cli/test-support/cli-process.js';

const SERVICE_TESTS = [
  'test_account_id',
  'test_balance',
  'test_agent_info',
  'test_request_signature_ecdsa',
  'test_request_signature_eddsa',
  'test_unknown_method',
  'test_bad_payload',
];

function python(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-m', 'unittest', 'discover', '-s', 'python/tests', '-v'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      output += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      output += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('python/tests against shadebox up', () => {
  let cli: CliProcess;
  let agentApiUrl: string;

  before(async () => {
    cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--json']);
    agentApiUrl = JSON.parse(await cli.firstLine()).agentApiUrl;
    await cli.stdoutIncludes('"agent-ready"');
  });

  after(async () => {
    await cli?.stop();
  });

  it('python3 -m unittest discover: exit 0, the real-service tests ran and passed, none skipped', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SHADEBOX_AGENT_API_URL: agentApiUrl };
    delete env.AGENT_API_URL;
    delete env.API_PORT;
    const { code, output } = await python(env);
    assert.equal(code, 0, output);
    for (const name of SERVICE_TESTS) {
      // Only the test's announcement is matched: its "ok" may come after unrelated stderr lines (the test
      // double's server threads print BrokenPipe tracebacks); exit 0 with a bare "OK" means all passed.
      assert.ok(
        output.includes(`${name} (test_client.ClientAgainstServiceTest.${name}) ... `),
        `${name}:\n${output}`,
      );
    }
    assert.doesNotMatch(output, /skipped/i, output);
    assert.match(output, /^OK$/m, 'OK without (skipped=…)');
    const ran = /^Ran (\d+) tests? in/m.exec(output);
    assert.ok(ran && Number(ran[1]) >= SERVICE_TESTS.length, output);
  });
});
