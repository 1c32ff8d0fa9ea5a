/**
 * The `marionette` command line: validate, simulate, export, schema, bench. Runs in Node from a checkout
 * (`npm run --silent cli -- <command>`, i.e. tsx) or from the package (`bin/marionette.mjs`, which runs
 * the esbuild bundle dist/cli.mjs). `main` takes argv and an IO object so tests run it in-process.
 */
import { fileURLToPath } from 'node:url';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, UsageError, processIO, type CliIO } from './io';
import * as validate from './commands/validate';
import * as generate from './commands/generate';
import * as simulate from './commands/simulate';
import * as exportCommand from './commands/export';
import * as importCommand from './commands/import';
import * as schema from './commands/schema';
import * as bench from './commands/bench';
import * as tune from './commands/tune';
import * as transfer from './commands/transfer';

interface Command {
  summary: string;
  help: string;
  run(argv: string[], io: CliIO): number | Promise<number>;
}

const commands: Record<string, Command> = { validate, generate, transfer, simulate, export: exportCommand, import: importCommand, schema, bench, tune };

const usage = () => `Usage: marionette <command> [options]

Marionette's command line: check, run and export powered-ragdoll rigs.

Commands:
${Object.entries(commands).map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`).join('\n')}

Run \`marionette <command> --help\` for a command's options.
Exit status: 0 success, 1 invalid input (a rig, a file), 2 usage error.
`;

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0] && commands[rest[0]]) { io.out(commands[rest[0]]!.help); return EXIT_OK; }
    (name === undefined ? io.err : io.out)(usage());
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (name === '--version' || name === '-v') { io.out('marionette rig format 1\n'); return EXIT_OK; }
  const command = commands[name];
  if (!command) {
    io.err(`marionette: unknown command "${name}"\n\n${usage()}`);
    return EXIT_USAGE;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`marionette ${name}: ${e.message}\n\n${command.help}`);
      return EXIT_USAGE;
    }
    io.err(`marionette ${name}: ${(e as Error).message}\n`);
    if (process.env.MARIONETTE_DEBUG) io.err(`${(e as Error).stack}\n`);
    return EXIT_INVALID;
  }
}

// Run when executed directly (tsx cli/main.ts, or the dist/cli.mjs bundle), not when imported by tests.
const invoked = process.argv[1] ? fileURLToPath(import.meta.url) === process.argv[1] || process.env.MARIONETTE_CLI_MAIN === '1' : false;
if (invoked) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
