import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContainerEngineError } from './container-engine.js';
import { dockerDigest } from './image-digest.js';

const A = `sha256:${'a'.repeat(64)}`;
const B = `sha256:${'b'.repeat(64)}`;

describe("docker's digest of an image (up --agent-image with docker)", () => {
  it("is the reference's own digest when it names one", () => {
    assert.equal(dockerDigest(`registry.example.com/shadebox-agent-api@${A}`, []), A);
    assert.equal(dockerDigest(`registry.example.com/shadebox-agent-api@${A}`, [`other@${B}`]), A);
  });

  it("is the one of the reference's repository among the digests docker knows from a registry", () => {
    const known = [
      `registry.example.com/shadebox-agent-api@${A}`,
      `mirror.example.com:5000/shadebox-agent-api@${B}`,
    ];
    assert.equal(dockerDigest('registry.example.com/shadebox-agent-api:0.1.0', known), A);
    assert.equal(dockerDigest('mirror.example.com:5000/shadebox-agent-api:latest', known), B);
    assert.equal(
      dockerDigest('shadebox-agent-api:latest', [`registry.example.com/shadebox-agent-api@${A}`]),
      A,
    );
  });

  it('is an error saying what to do for a local build (no digest until pushed)', () => {
    assert.throws(
      () => dockerDigest('shadebox-agent-api:latest', []),
      (e: Error) =>
        e instanceof ContainerEngineError &&
        e.message.startsWith(
          'docker has no digest for the image shadebox-agent-api:latest: a local docker build',
        ) &&
        e.message.includes('apt-get install podman') &&
        e.message.includes('--agent-image <registry>/shadebox-agent-api@sha256:<digest>'),
    );
    assert.throws(() => dockerDigest('x:1', [`a@${A}`, `b@${B}`]), /docker has no digest for the image x:1/);
  });
});
