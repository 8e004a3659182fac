/**
 * Secret redaction: every text that leaves the agent API (responses, log lines, status) goes through
 * `redact`, which replaces any known secret key — whole (`ed25519:…`) or its base58 body alone — with
 * `[redacted]`. A second line of defence: no code path is meant to put a secret there.
 */
import type { AgentApiLogger } from './logger.js';

export interface Redactor {
  /** Adds a secret key (its string form) to what is removed. */
  addSecret(secret: string): void;
  /** Removes a secret added before (one no longer held by the process). */
  removeSecret(secret: string): void;
  /** The text with every known secret replaced by `[redacted]`. */
  redact(text: string): string;
  /** A logger whose fields and messages are redacted before they reach `log`. */
  logger(log: AgentApiLogger): AgentApiLogger;
}

export function createRedactor(): Redactor {
  const secrets: string[] = [];
  /** One pattern matching every secret key, whole or its base58 body alone. */
  let secretPattern: RegExp | undefined;
  const redact = (text: string): string => (secretPattern ? text.replace(secretPattern, '[redacted]') : text);
  const redactFields = (fields: object) => JSON.parse(redact(JSON.stringify(fields)));
  const compile = () => {
    if (secrets.length === 0) {
      secretPattern = undefined;
      return;
    }
    const parts = secrets.flatMap((k) => {
      const body = k.slice(k.indexOf(':') + 1);
      return body.length > 20 ? [k, body] : [k];
    });
    secretPattern = new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  };
  return {
    addSecret(secret) {
      secrets.push(secret);
      compile();
    },
    removeSecret(secret) {
      const i = secrets.indexOf(secret);
      if (i < 0) return;
      secrets.splice(i, 1);
      compile();
    },
    redact,
    logger: (log) => ({
      info: (f, m) => log.info(redactFields(f), m && redact(m)),
      warn: (f, m) => log.warn(redactFields(f), m && redact(m)),
      error: (f, m) => log.error(redactFields(f), m && redact(m)),
    }),
  };
}
