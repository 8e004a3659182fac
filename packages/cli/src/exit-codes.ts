/** The CLI's exit codes. */
export const EXIT_OK = 0;
/** The command ran and failed: a port in use, a home that exists, a broken home file. */
export const EXIT_FAILURE = 1;
/** The command line was wrong: unknown flag, bad value, conflicting flags. Nothing was done. */
export const EXIT_USAGE = 2;
