/**
 * When an LMDB store with a map budget remaps, and how long to wait before looking again: a pure policy, fed
 * the process's file-backed RSS (RssFile) at each check, so that it can be tested without timers or a kernel.
 *
 * Why the pacing: every page a read touches stays mapped until the next remap, and on Linux one fault maps
 * far more than the LMDB page it asked for (on 6.18/ext4, about 155 KiB per random 8 KiB read: the page
 * cache's large folios and fault-around). A node under load touches tens of MiB of `data.mdb` a second, more
 * as the file grows and its pages spread. Checked once a second, the store remapped every second from about
 * 300 MB of `data.mdb` on, and a sample of RssFile saw whatever one second had refilled: more than the budget,
 * and growing with the file. Checking as often as the refill needs keeps the pages held within the budget
 * plus about a quarter of it, whatever the file's size.
 */
export interface MapBudgetWatchOptions {
  /** Longest wait between two checks, in ms (while the pages held grow slowly, or the file fits). */
  maxIntervalMs: number;
  /** Shortest wait between two checks, in ms (while they grow fast). */
  minIntervalMs: number;
  /**
   * Least time between two remaps, in ms: when the pages the node touches all the time are more than the
   * budget, remapping at every check would only pay for the remap and the faults again, and gain nothing.
   */
  minRemapGapMs: number;
}

export interface MapCheck {
  /** Close and reopen the environment now, then call `remapped`. */
  remap: boolean;
  /** Wait before the next check, in ms. */
  nextCheckMs: number;
}

export class MapBudgetWatch {
  readonly #budget: number;
  readonly #options: MapBudgetWatchOptions;
  /** RssFile with none of the store's pages mapped: at the start and right after each remap. */
  #baseline: number;
  /** RssFile at the previous check. */
  #last: number;
  #intervalMs: number;
  /** Time since the last remap (or the start), as the sum of the waits between checks. */
  #sinceRemapMs = 0;

  constructor(budget: number, rssFile: number, options: MapBudgetWatchOptions) {
    this.#budget = budget;
    this.#options = options;
    this.#baseline = rssFile;
    this.#last = rssFile;
    this.#intervalMs = options.maxIntervalMs;
  }

  /** The wait before the first check, in ms. */
  get intervalMs(): number {
    return this.#intervalMs;
  }

  /** A check, `#intervalMs` after the previous one: `rssFile` now, `fileBytes` the size of `data.mdb`. */
  check(rssFile: number, fileBytes: number): MapCheck {
    const { maxIntervalMs, minIntervalMs, minRemapGapMs } = this.#options;
    this.#sinceRemapMs += this.#intervalMs;
    const grown = Math.max(0, rssFile - this.#last);
    this.#last = rssFile;
    // Something else unmapped (the binary's pages reclaimed): the store holds at least this little.
    if (rssFile < this.#baseline) this.#baseline = rssFile;
    // Nothing to do while the whole file fits in the budget (small stores: most tests, fresh homes).
    if (fileBytes <= this.#budget) {
      this.#intervalMs = maxIntervalMs;
      return { remap: false, nextCheckMs: this.#intervalMs };
    }
    // Pace the checks so that one wait's growth is about a quarter of the budget, at most doubling the wait
    // from one check to the next (a quiet second says little about the next).
    const target = this.#budget / 4;
    const paced = grown === 0 ? maxIntervalMs : (this.#intervalMs * target) / grown;
    this.#intervalMs = Math.round(
      Math.min(maxIntervalMs, 2 * this.#intervalMs, Math.max(minIntervalMs, paced)),
    );
    const remap = rssFile - this.#baseline > this.#budget && this.#sinceRemapMs >= minRemapGapMs;
    return { remap, nextCheckMs: this.#intervalMs };
  }

  /** The store remapped: `rssFile` is what it left mapped (none of the store's pages). */
  remapped(rssFile: number): void {
    this.#baseline = rssFile;
    this.#last = rssFile;
    this.#sinceRemapMs = 0;
  }
}
