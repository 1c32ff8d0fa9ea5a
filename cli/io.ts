/** What a command needs from the process, so tests can run commands in-process with captured output. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal: progress lines are shown only then. */
  readonly interactive: boolean;
  readonly cwd: string;
}

/** Exit codes: 0 success, 1 the input is bad (invalid rig, unreadable file), 2 the command line is wrong. */
export const EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2;

/** A wrong command line (unknown option, missing argument): printed with the command's usage, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function processIO(): CliIO {
  // `marionette schema | head`: a closed pipe is the reader's choice, not an error worth a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); else throw e; });
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    interactive: Boolean(process.stdout.isTTY),
    cwd: process.cwd(),
  };
}
