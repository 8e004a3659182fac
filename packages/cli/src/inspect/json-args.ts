/** A function call's ARGS_JSON argument: JSON text (default `{}`), sent as its UTF-8 bytes. */
import { UsageError } from '../usage-error.js';

export function jsonArgs(command: string, text: string | undefined): Uint8Array {
  if (text === undefined) return Buffer.from('{}');
  try {
    JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      command,
      `invalid ARGS_JSON '${text.length > 80 ? `${text.slice(0, 80)}…` : text}': ${(error as Error).message}`,
      text,
    );
  }
  return Buffer.from(text);
}
