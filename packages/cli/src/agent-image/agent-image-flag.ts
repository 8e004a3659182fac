/**
 * `shadebox up --agent-image [REF]`: the flag's value is optional (the image `npm run image` tags). Node's
 * parseArgs has no optional values, so a bare `--agent-image` (last, or before another flag) gets the default
 * here, before the flags are parsed.
 */

/** The image `npm run image` builds and tags (deploy/build-image.mjs). */
export const DEFAULT_AGENT_IMAGE = 'shadebox-agent-api:latest';

export function withDefaultAgentImage(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    out.push(arg);
    if (arg === '--agent-image') {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('-')) out.push(DEFAULT_AGENT_IMAGE);
    }
  }
  return out;
}
