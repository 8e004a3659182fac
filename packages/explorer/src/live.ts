/**
 * Live head events for the views: one worker (live-worker.ts) holds the `/events/blocks` stream for the whole
 * page; `onLive` adds a listener and returns what removes it.
 */

export interface LiveEvent {
  /** `block`: a new head (and the head at once); `rewind`: the head moved back (`sandbox_revert`). */
  type: 'block' | 'rewind';
  height: number;
  hash: string;
}

const listeners = new Set<(event: LiveEvent) => void>();
let worker: Worker | undefined;

export function onLive(listener: (event: LiveEvent) => void): () => void {
  if (!worker) {
    worker = new Worker('/explorer/live.js');
    worker.onmessage = (e: MessageEvent<LiveEvent>) => {
      for (const l of listeners) l(e.data);
    };
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
