/**
 * The app-compose of a dstack app and its compose hash. dstack measures `app-compose.json` (the manifest
 * holding the docker compose file as `docker_compose_file`) byte for byte: compose hash = sha256 of the
 * file. Given a docker compose YAML, the simulator writes the manifest as Phala Cloud does (keys sorted,
 * no whitespace); given an app-compose.json, it takes the file's bytes as they are.
 */
import { createHash } from 'node:crypto';

export interface AppCompose {
  /** The text of app-compose.json: what tcb_info.app_compose holds. */
  text: string;
  /** hex(sha256(text)). */
  composeHash: string;
}

function isManifest(text: string): boolean {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) && 'runner' in v;
  } catch {
    return false;
  }
}

/** The app-compose for a compose FILE's text (a docker compose YAML or an app-compose.json). */
export function appComposeOf(fileText: string, name = 'shade-agent'): AppCompose {
  const text = isManifest(fileText)
    ? fileText
    : JSON.stringify({
        docker_compose_file: fileText,
        features: [],
        kms_enabled: false,
        manifest_version: 2,
        name,
        public_logs: true,
        public_sysinfo: true,
        runner: 'docker-compose',
      });
  return { text, composeHash: createHash('sha256').update(text, 'utf8').digest('hex') };
}
