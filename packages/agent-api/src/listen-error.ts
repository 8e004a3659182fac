/**
 * The agent API could not listen: the port is taken, needs privileges, or the host is not an address of
 * this machine. The message names the setting to change: AGENT_API_PORT (`--agent-port` of `shadebox up`) or
 * AGENT_API_HOST.
 */
import { ShadeboxError } from '@shadebox/errors';

export interface ListenErrorDetails {
  host: string;
  port: number;
  /** The system error code: EADDRINUSE, EACCES, EADDRNOTAVAIL, ENOTFOUND, EAI_AGAIN. */
  code: string;
  /** The environment variable to change. */
  variable: 'AGENT_API_PORT' | 'AGENT_API_HOST';
}

const PORT_HINT = 'set AGENT_API_PORT (shadebox up: --agent-port)';

export class AgentApiListenError extends ShadeboxError<ListenErrorDetails> {
  constructor(message: string, details: ListenErrorDetails, cause: unknown) {
    super(message, { details, cause, docsPath: 'docs/agent-api.md#configuration-environment' });
  }
}

/** The AgentApiListenError for a listen failure, or `error` itself when it is not one of those. */
export function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown })?.code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new AgentApiListenError(
        `the agent API cannot listen on ${where}: the port is already in use (is another agent or stack running?); ${PORT_HINT} to another port, or 0 for a free one`,
        { host, port, code, variable: 'AGENT_API_PORT' },
        error,
      );
    case 'EACCES':
      return new AgentApiListenError(
        `the agent API cannot listen on ${where}: permission denied (ports below 1024 need privileges); ${PORT_HINT} to 1024 or above`,
        { host, port, code, variable: 'AGENT_API_PORT' },
        error,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new AgentApiListenError(
        `the agent API cannot listen on ${where}: ${code === 'EADDRNOTAVAIL' ? 'no such local address' : 'the host name does not resolve'}; set AGENT_API_HOST to an address of this machine, e.g. 127.0.0.1`,
        { host, port, code, variable: 'AGENT_API_HOST' },
        error,
      );
  }
  return error;
}
