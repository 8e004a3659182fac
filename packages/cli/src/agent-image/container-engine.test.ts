import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ContainerEngineError,
  chooseContainerEngine,
  dockerInfoProblem,
  type EngineProbe,
  engineVersionOf,
  engineVersionWarning,
} from './container-engine.js';

const NO_DAEMON =
  'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?';

/** A machine with these commands installed and docker's daemon answering or not. */
function machine(
  installed: string[],
  daemon: string | undefined = undefined,
): EngineProbe & { asked: number } {
  const probe = {
    asked: 0,
    installed: (cmd: string) => installed.includes(cmd),
    dockerDaemonProblem: () => {
      probe.asked++;
      return daemon;
    },
  };
  return probe;
}

describe('the container engine', () => {
  it('prefers podman, and does not ask docker when podman is there', () => {
    const probe = machine(['podman', 'docker'], NO_DAEMON);
    assert.equal(chooseContainerEngine(undefined, probe), 'podman');
    assert.equal(probe.asked, 0);
  });

  it('takes docker where podman is missing only once its daemon answers', () => {
    assert.equal(chooseContainerEngine(undefined, machine(['docker'])), 'docker');
    assert.throws(
      () => chooseContainerEngine(undefined, machine(['docker'], NO_DAEMON)),
      (e: Error) =>
        e instanceof ContainerEngineError &&
        e.message.startsWith(
          'docker is installed but its daemon does not answer (Cannot connect to the Docker',
        ) &&
        e.message.includes('apt-get install podman'),
    );
  });

  it('checks the daemon of a docker named by SHADEBOX_IMAGE_ENGINE too, and a named engine must run', () => {
    assert.throws(
      () => chooseContainerEngine('docker', machine(['podman', 'docker'], NO_DAEMON)),
      /daemon does not answer/,
    );
    assert.equal(chooseContainerEngine(' docker ', machine(['podman', 'docker'])), 'docker');
    assert.equal(chooseContainerEngine('podman', machine(['podman', 'docker'], NO_DAEMON)), 'podman');
    assert.throws(
      () => chooseContainerEngine('podman', machine(['docker'])),
      /SHADEBOX_IMAGE_ENGINE=podman: 'podman --version' fails/,
    );
  });

  it('says how to install one when there is none', () => {
    assert.throws(
      () => chooseContainerEngine(undefined, machine([])),
      /neither podman nor docker is installed: apt-get install podman/,
    );
  });

  it("reads the reason out of docker info's error output", () => {
    assert.equal(dockerInfoProblem(0, ''), undefined);
    assert.equal(dockerInfoProblem(1, `Client:\n Version: 28.2.2\n\nServer:\n${NO_DAEMON}\n`), NO_DAEMON);
    assert.equal(
      dockerInfoProblem(null, '', new Error('spawnSync docker ETIMEDOUT')),
      "'docker info' did not run: spawnSync docker ETIMEDOUT",
    );
    assert.equal(dockerInfoProblem(2, ''), "'docker info' exited with 2");
  });
});

describe("the engine's pinned version", () => {
  const pin = { name: 'podman', version: '4.3.1' };
  it('reads the version engines print', () => {
    assert.equal(engineVersionOf('podman version 4.3.1\n'), '4.3.1');
    assert.equal(engineVersionOf('Docker version 28.2.2, build e6534b4'), '28.2.2');
    assert.equal(engineVersionOf('podman version 5.0.0-dev'), '5.0.0-dev');
    assert.equal(engineVersionOf('something else'), undefined);
  });

  it('warns, saying the digest may differ and how to bump the pin, only when podman is not the pinned one', () => {
    assert.equal(
      engineVersionWarning(pin, 'podman', 'podman version 4.3.1', 'deploy/image-pins.json'),
      undefined,
    );
    assert.equal(
      engineVersionWarning(pin, 'docker', 'Docker version 28.2.2', 'deploy/image-pins.json'),
      undefined,
    );
    const warning = engineVersionWarning(pin, 'podman', 'podman version 4.9.3', 'deploy/image-pins.json');
    assert.match(
      warning!,
      /^podman 4\.9\.3 is not the pinned podman 4\.3\.1 \(deploy\/image-pins\.json, "engine"\)/,
    );
    assert.match(warning!, /this digest may differ from the one podman 4\.3\.1 gives/);
    assert.match(warning!, /set "engine"\."version" to 4\.9\.3 in deploy\/image-pins\.json/);
    assert.match(
      engineVersionWarning(pin, 'podman', 'odd', 'p.json')!,
      /^podman of unknown version \('odd'\)/,
    );
  });
});
