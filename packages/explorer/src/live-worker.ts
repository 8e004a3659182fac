/**
 * The page's live head, in a dedicated worker (dist/live.js): it holds the `/events/blocks` stream and passes
 * each event to the page (live.ts). Why a worker: a stream that never ends is a network fetch that never
 * finishes, and Chromium's virtual time (`--virtual-time-budget`, what a headless screenshot waits on) does not
 * advance while the page has one pending; a worker's fetches do not hold the page's virtual time.
 */
const events = new EventSource('/events/blocks');
const scope = globalThis as unknown as { postMessage(message: unknown): void };
for (const type of ['block', 'rewind']) {
  events.addEventListener(type, (e) => scope.postMessage({ type, ...JSON.parse((e as MessageEvent).data) }));
}
