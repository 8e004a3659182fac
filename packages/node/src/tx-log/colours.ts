/** ANSI colours for the live transaction log, or none (a file, a pipe, NO_COLOR). */

export interface Colours {
  heading(text: string): string;
  ok(text: string): string;
  failure(text: string): string;
  dim(text: string): string;
  log(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

export const ANSI_COLOURS: Colours = {
  heading: wrap(1, 22),
  ok: wrap(32, 39),
  failure: wrap(31, 39),
  dim: wrap(2, 22),
  log: wrap(33, 39),
};

const same = (text: string) => text;
export const NO_COLOURS: Colours = { heading: same, ok: same, failure: same, dim: same, log: same };

/** Colours when `stream` is a terminal and NO_COLOR (https://no-color.org) is unset or empty. */
export function coloursFor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined> = process.env,
): Colours {
  return stream.isTTY === true && !env.NO_COLOR ? ANSI_COLOURS : NO_COLOURS;
}
