/**
 * The two image digests an app-compose pins, found as the built-in agent contract finds them
 * (packages/contracts/assembly/agent/tee.ts): the `image: …@sha256:<64 hex>` line after the
 * `#shade-agent-api-image` and `#shade-agent-app-image` comments. `up --tee dstack` approves both.
 */

export interface ComposeImages {
  /** 64 hex digits, without `sha256:`. */
  api: string;
  app: string;
}

function digestAfter(text: string, tag: string): string | undefined {
  const at = text.indexOf(tag);
  if (at < 0) return undefined;
  const image = text.indexOf('image:', at);
  if (image < 0) return undefined;
  // The line ends at a newline, or at an escaped `\n` inside app-compose.json.
  const ends = [text.indexOf('\n', image), text.indexOf('\\n', image)].filter((i) => i >= 0);
  const line = text.slice(image, ends.length === 0 ? undefined : Math.min(...ends));
  return /@sha256:([0-9a-fA-F]{64})(?![0-9a-fA-F])/.exec(line)?.[1]?.toLowerCase();
}

/** Both digests, or undefined when either is missing (the contract would refuse the compose). */
export function composeImages(text: string): ComposeImages | undefined {
  const api = digestAfter(text, '#shade-agent-api-image');
  const app = digestAfter(text, '#shade-agent-app-image');
  return api === undefined || app === undefined ? undefined : { api, app };
}

/** The docker compose file `up --tee dstack` writes when given none: the agent API image beside an app image,
 * both pinned by digest and tagged as the Shade Agent tooling (and the agent contract) reads them. */
export function defaultAppCompose(apiDigest: string, appDigest: string): string {
  return [
    '# Written by shadebox up --tee dstack: the compose file the simulated dstack measures (its compose hash).',
    'services:',
    '  shade-agent-api:',
    '    #shade-agent-api-image',
    `    image: shadebox-agent-api@sha256:${apiDigest}`,
    '    volumes:',
    '      - /var/run/dstack.sock:/var/run/dstack.sock',
    '  shade-agent-app:',
    '    #shade-agent-app-image',
    `    image: shadebox-example-app@sha256:${appDigest}`,
    '',
  ].join('\n');
}
