/**
 * What a command reads from and writes to its process: stdout, stderr, the environment and the working
 * directory. The executable passes the process's own ({@link processIo}); tests pass buffers, an environment
 * and a directory of their own, and run the parser, the usage errors and the help texts in process.
 */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  /** Relative paths (`--home`, the default homes) resolve against it. */
  cwd: string;
}

/** The process's own streams, environment and working directory. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
