/**
 * A small client of the V8 inspector of another Node process (started with `--inspect=HOST:PORT`): calls on
 * the main thread and, through the `NodeWorker` domain, on each worker thread (the view workers); heap
 * snapshots written to a file. Used by `bench/soak-heap.ts`.
 */
import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
}

/** One target: the main thread (no session id) or a worker (its NodeWorker session id). */
export class InspectorTarget {
  #id = 0;
  readonly #pending = new Map<number, (value: unknown) => void>();
  #chunks: string[] = [];

  constructor(
    readonly label: string,
    readonly send: (text: string) => void,
  ) {}

  /** Handles a message of this target; returns true when it was one of its replies or events. */
  receive(message: Message): void {
    if (message.method === 'HeapProfiler.addHeapSnapshotChunk') {
      this.#chunks.push(String(message.params?.chunk ?? ''));
    }
    if (message.id !== undefined) {
      this.#pending.get(message.id)?.(message.error ?? message.result);
      this.#pending.delete(message.id);
    }
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.#id;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.send(JSON.stringify({ id, method, params }));
    });
  }

  async evaluate(expression: string): Promise<unknown> {
    const result = (await this.call('Runtime.evaluate', {
      expression,
      returnByValue: true,
      includeCommandLineAPI: true,
    })) as { result?: { value?: unknown } };
    return result.result?.value;
  }

  /** Used bytes of this thread's V8 heap (its isolate) after a full collection. */
  async heapUsedAfterGc(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    return Number(await this.evaluate('process.memoryUsage().heapUsed'));
  }

  /** Writes a heap snapshot (V8 runs a full collection first). */
  async snapshot(file: string): Promise<void> {
    this.#chunks = [];
    await this.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    writeFileSync(file, this.#chunks.join(''));
    this.#chunks = [];
  }
}

export class InspectorClient {
  readonly main: InspectorTarget;
  readonly workers = new Map<string, InspectorTarget>();

  private constructor(readonly socket: WebSocket) {
    this.main = new InspectorTarget('main', (text) => socket.send(text));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Message;
      if (message.method === 'NodeWorker.attachedToWorker') {
        const sessionId = String(message.params?.sessionId);
        const info = message.params?.workerInfo as { title?: string } | undefined;
        this.workers.set(
          sessionId,
          new InspectorTarget(`worker ${info?.title ?? sessionId}`, (text) =>
            socket.send(
              JSON.stringify({
                id: 0,
                method: 'NodeWorker.sendMessageToWorker',
                params: { sessionId, message: text },
              }),
            ),
          ),
        );
        return;
      }
      if (message.method === 'NodeWorker.detachedFromWorker') {
        this.workers.delete(String(message.params?.sessionId));
        return;
      }
      if (message.method === 'NodeWorker.receivedMessageFromWorker') {
        const target = this.workers.get(String(message.params?.sessionId));
        target?.receive(JSON.parse(String(message.params?.message)) as Message);
        return;
      }
      if (message.id === 0) return; // the reply of a sendMessageToWorker
      this.main.receive(message);
    });
  }

  static async connect(port: number): Promise<InspectorClient> {
    const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const socket = new WebSocket(list[0].webSocketDebuggerUrl, { perMessageDeflate: false, maxPayload: 0 });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const client = new InspectorClient(socket);
    await client.main.call('NodeWorker.enable', { waitForDebuggerOnStart: false });
    return client;
  }

  close(): void {
    this.socket.close();
  }
}
