/** marionette bench — the physics benchmark (issue 3), run in-process from bench/main.ts. */
import { BENCH_OPTIONS } from '../../bench/options';
import { EXIT_OK, type CliIO } from '../io';

export const summary = 'run the physics benchmark (Marionette vs Rapier vs Jolt)';

export const help = `Usage: marionette bench [options]

Runs the physics benchmark of issue 3 (the same as \`npm run bench\`): ragdoll
scenes stepped by Marionette's solver, Rapier and Jolt, with a table of ms/step,
drift and the target ratios. Options are the benchmark's own:
${BENCH_OPTIONS}
Progress is shown when stdout is a terminal.
`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) { io.out(help); return EXIT_OK; }
  // Loaded on demand: the benchmark pulls in Rapier and Jolt (WebAssembly), which no other command needs.
  const { benchMain } = await import('../../bench/main');
  return benchMain(argv, { out: (t) => io.out(`${t}\n`), err: (t) => io.err(`${t}\n`), progress: io.interactive });
}
