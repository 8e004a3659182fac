import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_AGENT_IMAGE, withDefaultAgentImage } from './agent-image-flag.js';

describe('--agent-image [REF]', () => {
  it('takes the default image when the flag is last or followed by another flag', () => {
    assert.deepEqual(withDefaultAgentImage(['--memory', '--agent-image']), [
      '--memory',
      '--agent-image',
      DEFAULT_AGENT_IMAGE,
    ]);
    assert.deepEqual(withDefaultAgentImage(['--agent-image', '--json']), [
      '--agent-image',
      DEFAULT_AGENT_IMAGE,
      '--json',
    ]);
    assert.equal(DEFAULT_AGENT_IMAGE, 'shadebox-agent-api:latest');
  });

  it('keeps a given image and every other argument as they are', () => {
    assert.deepEqual(withDefaultAgentImage(['--agent-image', 'my/api@sha256:ab', '--json']), [
      '--agent-image',
      'my/api@sha256:ab',
      '--json',
    ]);
    assert.deepEqual(withDefaultAgentImage(['--agent-image=x:1', '--memory']), [
      '--agent-image=x:1',
      '--memory',
    ]);
  });
});
