/**
 * SIGINT/SIGTERM handling for the long-running commands: the first signal asks for a clean shutdown (the
 * command stops its servers and exits 0); a second signal, while that shutdown runs, exits at once with
 * 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), as a shell reports a killed process.
 */

const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const;
type ShutdownSignalName = keyof typeof SIGNALS;

export class ShutdownSignal {
  /** Resolves with the first signal received. */
  readonly received: Promise<ShutdownSignalName>;
  private first: ShutdownSignalName | undefined;
  private readonly handlers = new Map<ShutdownSignalName, () => void>();

  constructor(private readonly onSecond: (signal: ShutdownSignalName) => void = defaultOnSecond) {
    let resolve!: (signal: ShutdownSignalName) => void;
    this.received = new Promise((r) => {
      resolve = r;
    });
    for (const signal of Object.keys(SIGNALS) as ShutdownSignalName[]) {
      const handler = () => {
        if (this.first === undefined) {
          this.first = signal;
          resolve(signal);
        } else {
          this.onSecond(signal);
        }
      };
      this.handlers.set(signal, handler);
      process.on(signal, handler);
    }
  }

  /** Asks for the clean shutdown as `signal` would (standard input closed: `shadebox up --stop-with-stdin`). */
  request(signal: ShutdownSignalName): void {
    this.handlers.get(signal)?.();
  }

  /** True once a signal arrived. */
  get requested(): boolean {
    return this.first !== undefined;
  }

  /** Removes the handlers (the default behaviour of the signals comes back). */
  dispose(): void {
    for (const [signal, handler] of this.handlers) process.off(signal, handler);
    this.handlers.clear();
  }
}

function defaultOnSecond(signal: ShutdownSignalName): void {
  process.stderr.write(`${signal} again: exiting immediately\n`);
  process.exit(128 + SIGNALS[signal]);
}
