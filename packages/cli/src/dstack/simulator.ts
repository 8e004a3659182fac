/**
 * The simulated dstack guest agent's answers (dstack 0.5's guest-agent API, as @phala/dstack-sdk's
 * DstackClient calls it): Info, GetQuote, GetKey, EmitEvent, Version. Every answer carries
 * `"simulated": true`; the quote's vendor id and texts say SIMULATED (tdx-quote.ts). Nothing here is an
 * attestation: anyone can produce these quotes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type AppCompose, appComposeOf } from './app-compose.js';
import { DEFAULT_ROOT_KEY, deriveKey } from './derive-key.js';
import { type EventLogEntry, replayRtmr, runtimeEvent } from './event-log.js';
import { encodeTdxQuote } from './tdx-quote.js';

export interface DstackSimulatorOptions {
  /** The compose FILE's text: a docker compose YAML or an app-compose.json (app-compose.ts). */
  composeText: string;
  /** `name` of the app-compose written for a YAML file. */
  appName?: string;
  /** Measurements of the simulated TD (48 bytes each); defaults are fixed labels' sha384. */
  mrtd?: Buffer;
  rtmr0?: Buffer;
  rtmr1?: Buffer;
  rtmr2?: Buffer;
  /** Payload of the `key-provider` event (dstack writes JSON such as `{"name":"kms","id":"…"}`). */
  keyProvider?: string;
  /** The platform's PPID (16 bytes), in the quote's certification data (tdx-quote.ts). */
  ppid?: Buffer;
  /** 20 bytes each; the app id defaults to the compose hash's first 20 bytes, the instance id is random. */
  appId?: Buffer;
  instanceId?: Buffer;
  /** Root of GetKey's keys (derive-key.ts); default the public DEFAULT_ROOT_KEY. */
  rootKey?: Buffer;
}

export class DstackRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DstackRequestError';
  }
}

export const SIMULATED_VERSION = '0.5.8-shadebox-simulated';
const NOTICE = 'simulated by shadebox dstack: not a TEE, not an attestation';

const label = (algorithm: 'sha256' | 'sha384', text: string) =>
  createHash(algorithm).update(`shadebox-simulated ${text}`).digest();

export const DEFAULT_MEASUREMENTS = {
  mrtd: label('sha384', 'mrtd'),
  rtmr0: label('sha384', 'rtmr0'),
  rtmr1: label('sha384', 'rtmr1'),
  rtmr2: label('sha384', 'rtmr2'),
};
export const DEFAULT_PPID = label('sha256', 'ppid').subarray(0, 16);
const OS_IMAGE_HASH = label('sha256', 'os image');

function sized(name: string, value: Buffer, length: number): Buffer {
  if (value.length !== length) throw new RangeError(`${name}: expected ${length} bytes, got ${value.length}`);
  return value;
}

function hexArgument(name: string, value: unknown, maxBytes: number): Buffer {
  const text = typeof value === 'string' ? value.replace(/^0x/, '') : '';
  if (typeof value !== 'string' || text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text))
    throw new DstackRequestError(`${name}: expected a hex string`);
  const bytes = Buffer.from(text, 'hex');
  if (bytes.length > maxBytes) throw new DstackRequestError(`${name}: at most ${maxBytes} bytes`);
  return bytes;
}

export class DstackSimulator {
  readonly compose: AppCompose;
  readonly appName: string;
  readonly mrtd: Buffer;
  readonly rtmr0: Buffer;
  readonly rtmr1: Buffer;
  readonly rtmr2: Buffer;
  readonly ppid: Buffer;
  readonly appId: Buffer;
  readonly instanceId: Buffer;
  readonly keyProvider: string;
  /** RTMR3's events so far (boot's, then EmitEvent's). */
  readonly eventLog: EventLogEntry[];
  readonly #rootKey: Buffer;

  constructor(options: DstackSimulatorOptions) {
    this.appName = options.appName ?? 'shade-agent';
    this.compose = appComposeOf(options.composeText, this.appName);
    this.mrtd = sized('mrtd', options.mrtd ?? DEFAULT_MEASUREMENTS.mrtd, 48);
    this.rtmr0 = sized('rtmr0', options.rtmr0 ?? DEFAULT_MEASUREMENTS.rtmr0, 48);
    this.rtmr1 = sized('rtmr1', options.rtmr1 ?? DEFAULT_MEASUREMENTS.rtmr1, 48);
    this.rtmr2 = sized('rtmr2', options.rtmr2 ?? DEFAULT_MEASUREMENTS.rtmr2, 48);
    this.ppid = sized('ppid', options.ppid ?? DEFAULT_PPID, 16);
    this.#rootKey = options.rootKey ?? DEFAULT_ROOT_KEY;
    const composeHash = Buffer.from(this.compose.composeHash, 'hex');
    this.appId = sized('app id', options.appId ?? composeHash.subarray(0, 20), 20);
    this.instanceId = sized('instance id', options.instanceId ?? randomBytes(20), 20);
    this.keyProvider =
      options.keyProvider ??
      JSON.stringify({ name: 'shadebox-simulated', id: label('sha256', 'key provider').toString('hex') });
    // RTMR3 as a dstack 0.5 guest extends it while booting the app.
    this.eventLog = [
      runtimeEvent('system-preparing', Buffer.alloc(0)),
      runtimeEvent('app-id', this.appId),
      runtimeEvent('compose-hash', composeHash),
      runtimeEvent('instance-id', this.instanceId),
      runtimeEvent('boot-mr-done', Buffer.alloc(0)),
      runtimeEvent('os-image-hash', OS_IMAGE_HASH),
      runtimeEvent('key-provider', Buffer.from(this.keyProvider, 'utf8')),
      runtimeEvent('system-ready', Buffer.alloc(0)),
    ];
  }

  get rtmr3(): Buffer {
    return replayRtmr(this.eventLog, 3);
  }

  /** sha256(PPID), as dstack names the machine. */
  get deviceId(): string {
    return createHash('sha256').update(this.ppid).digest('hex');
  }

  tcbInfo() {
    return {
      mrtd: this.mrtd.toString('hex'),
      rtmr0: this.rtmr0.toString('hex'),
      rtmr1: this.rtmr1.toString('hex'),
      rtmr2: this.rtmr2.toString('hex'),
      rtmr3: this.rtmr3.toString('hex'),
      os_image_hash: OS_IMAGE_HASH.toString('hex'),
      compose_hash: this.compose.composeHash,
      device_id: this.deviceId,
      app_compose: this.compose.text,
      event_log: this.eventLog,
      simulated: true,
    };
  }

  info() {
    return {
      app_id: this.appId.toString('hex'),
      instance_id: this.instanceId.toString('hex'),
      app_cert: '',
      tcb_info: JSON.stringify(this.tcbInfo()),
      app_name: this.appName,
      device_id: this.deviceId,
      os_image_hash: OS_IMAGE_HASH.toString('hex'),
      key_provider_info: this.keyProvider,
      compose_hash: this.compose.composeHash,
      vm_config: '{}',
      simulated: true,
      notice: NOTICE,
    };
  }

  /** `{report_data: hex ≤ 64 bytes}` → a quote over it (zero-padded to 64 bytes) and the event log. */
  getQuote(body: Record<string, unknown>) {
    const reportData = Buffer.alloc(64);
    hexArgument('report_data', body.report_data, 64).copy(reportData);
    const quote = encodeTdxQuote({
      mrtd: this.mrtd,
      rtmr0: this.rtmr0,
      rtmr1: this.rtmr1,
      rtmr2: this.rtmr2,
      rtmr3: this.rtmr3,
      reportData,
      ppid: this.ppid,
    });
    return {
      quote: quote.toString('hex'),
      event_log: JSON.stringify(this.eventLog),
      report_data: reportData.toString('hex'),
      vm_config: '{}',
      simulated: true,
      notice: NOTICE,
    };
  }

  /** `{path, purpose, algorithm}` → `{key: hex, signature_chain}`: the key of the path (derive-key.ts). */
  getKey(body: Record<string, unknown>) {
    const path = body.path ?? '';
    if (typeof path !== 'string') throw new DstackRequestError('path: expected a string');
    const algorithm = body.algorithm ?? 'secp256k1';
    if (!['secp256k1', 'k256', 'ed25519', ''].includes(algorithm as string))
      throw new DstackRequestError(`algorithm: unsupported ${JSON.stringify(algorithm)}`);
    // No KMS signs the key: the chain a real guest agent returns (app key over the key, KMS over the app key)
    // is empty here.
    return {
      key: deriveKey(this.#rootKey, this.appId, path).toString('hex'),
      signature_chain: [],
      simulated: true,
    };
  }

  /** `{event, payload: hex}`: extends RTMR3 as dstack does. */
  emitEvent(body: Record<string, unknown>) {
    if (typeof body.event !== 'string' || body.event === '')
      throw new DstackRequestError('event: expected a non-empty string');
    this.eventLog.push(runtimeEvent(body.event, hexArgument('payload', body.payload ?? '', 1 << 20)));
    return {};
  }

  version() {
    return { version: SIMULATED_VERSION, rev: 'shadebox', simulated: true };
  }
}
