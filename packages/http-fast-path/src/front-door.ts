/**
 * A `node:http` server behind a fast path: node:http listens on a private loopback port, the fast path on the
 * public one, and closing stops both with every connection.
 */
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';
import { createFastPathServer, type FastPathOptions } from './fast-path-server.js';

export interface FrontDoor {
  /** The public address. */
  address: AddressInfo;
  close(): Promise<void>;
}

export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function listenBehindFastPath(
  fallback: HttpServer,
  options: Omit<FastPathOptions, 'fallbackPort'>,
  port: number,
  host: string,
): Promise<FrontDoor> {
  // The fast path answers a client that sends its requests and then ends its side (FIN); node:http, by default,
  // drops the requests still unanswered at that FIN. Relayed connections get the same answers as direct ones.
  (fallback as HttpServer & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  await listen(fallback, 0, '127.0.0.1');
  const fallbackPort = (fallback.address() as AddressInfo).port;
  const front = createFastPathServer({ ...options, fallbackPort: () => fallbackPort });
  const sockets = new Set<Socket>();
  front.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  try {
    await listen(front, port, host);
  } catch (error) {
    await new Promise<void>((resolve) => fallback.close(() => resolve()));
    throw error;
  }
  return {
    address: front.address() as AddressInfo,
    async close() {
      const closed = Promise.all([
        new Promise<void>((resolve) => front.close(() => resolve())),
        new Promise<void>((resolve) => fallback.close(() => resolve())),
      ]);
      for (const socket of sockets) socket.destroy();
      fallback.closeAllConnections();
      await closed;
    },
  };
}
