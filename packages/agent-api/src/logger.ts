/** The agent API's structured logging, pino-compatible (`log.info(fields, message)`). */
export interface AgentApiLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

/** The default: one JSON line per entry on stderr. */
export const stderrLogger: AgentApiLogger = {
  info: (fields, message) => console.error(JSON.stringify({ level: 'info', msg: message, ...fields })),
  warn: (fields, message) => console.error(JSON.stringify({ level: 'warn', msg: message, ...fields })),
  error: (fields, message) => console.error(JSON.stringify({ level: 'error', msg: message, ...fields })),
};

/** The message of anything thrown. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
