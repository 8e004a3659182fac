/**
 * The simulator's settings from `shadebox dstack`'s flags (and `up --tee dstack`'s): measurements and PPID
 * in hex, the key-provider event's payload, the root key.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../usage-error.js';
import type { DstackSimulatorOptions } from './simulator.js';

export const SIMULATOR_FLAG_OPTIONS = {
  mrtd: { type: 'string' },
  rtmr0: { type: 'string' },
  rtmr1: { type: 'string' },
  rtmr2: { type: 'string' },
  'key-provider': { type: 'string' },
  ppid: { type: 'string' },
  'app-id': { type: 'string' },
  'instance-id': { type: 'string' },
  'root-key': { type: 'string' },
} as const;

export const SIMULATOR_FLAGS_HELP = `  --mrtd HEX          MRTD of the simulated TD (48 bytes; default a fixed label's sha384)
  --rtmr0 HEX, --rtmr1 HEX, --rtmr2 HEX
                      RTMR0-2 in the quote and tcb_info (48 bytes each; defaults likewise)
  --key-provider TEXT payload of the key-provider event in RTMR3 (dstack writes JSON such as
                      {"name":"kms","id":"<hex>"}; default {"name":"shadebox-simulated",…})
  --ppid HEX          the platform's PPID (16 bytes), in the quote's certification data (docs/tee.md)
  --app-id HEX        app id (20 bytes; default the compose hash's first 20 bytes)
  --instance-id HEX   instance id (20 bytes; default random at each start)
  --root-key HEX      root of GetKey's keys (32 bytes; default a public key: anyone can derive the keys)
`;

type SimulatorFlags = { [K in keyof typeof SIMULATOR_FLAG_OPTIONS]?: string };

function hexFlag(command: string, flag: string, value: string, bytes: number): Buffer {
  const text = value.replace(/^0x/, '');
  if (text.length !== bytes * 2 || !/^[0-9a-fA-F]+$/.test(text))
    throw new UsageError(
      command,
      `invalid value '${value}' for ${flag}: expected ${bytes} bytes in hex`,
      flag,
    );
  return Buffer.from(text, 'hex');
}

/** The simulator's options for COMPOSE (a file path) and the flags; a missing file is a UsageError. */
export function simulatorOptions(
  command: string,
  compose: string,
  flags: SimulatorFlags,
): DstackSimulatorOptions {
  let composeText: string;
  try {
    composeText = readFileSync(compose, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(command, `cannot read --compose ${compose} (${code})`, '--compose');
  }
  const hex = (flag: keyof SimulatorFlags, bytes: number) => {
    const v = flags[flag];
    return v === undefined ? undefined : hexFlag(command, `--${flag}`, v, bytes);
  };
  if (flags['key-provider'] === '')
    throw new UsageError(
      command,
      "invalid value '' for --key-provider: expected a non-empty value",
      '--key-provider',
    );
  return {
    composeText,
    mrtd: hex('mrtd', 48),
    rtmr0: hex('rtmr0', 48),
    rtmr1: hex('rtmr1', 48),
    rtmr2: hex('rtmr2', 48),
    ppid: hex('ppid', 16),
    appId: hex('app-id', 20),
    instanceId: hex('instance-id', 20),
    rootKey: hex('root-key', 32),
    keyProvider: flags['key-provider'],
  };
}
