/**
 * Turns an error thrown while a node starts into the one line the CLI prints: a port in use, an address that
 * cannot be bound, a partial or invalid home. Anything else prints its own message.
 */
import { basename } from 'node:path';

interface SystemError extends Error {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
  hostname?: string;
}

export function describeStartError(
  error: unknown,
  listen: { host: string; port: number | undefined },
): string {
  if (!(error instanceof Error)) return String(error);
  const e = error as SystemError;
  const where = `${e.address ?? listen.host}:${e.port ?? listen.port ?? '?'}`;
  switch (e.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the address is already in use (pick another port with --rpc-port, or 0 for a free one)`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges; use --rpc-port)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: no such local address (check --host)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${listen.host}: the host name does not resolve (check --host)`;
  }
  if (e.name === 'HomeInUseError') {
    return `${oneLine(e.message)}; ${(e as Error & { advice: string }).advice}`;
  }
  if (e.name === 'HomeExistsError') {
    const { dir = '', existing = [] } = e as Error & { dir?: string; existing?: readonly string[] };
    const files = existing.map((path) => basename(path)).join(', ');
    return (
      `${dir} holds a partial node home (${files}) without genesis.json; ` +
      `re-create it with 'shadebox node init --home ${dir} --force'`
    );
  }
  return oneLine(e.message);
}

/** Error messages can quote file contents; the CLI's error is one line. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
