/**
 * Command line of the physics benchmark: `npm run bench -- [options]` and `marionette bench [options]`.
 * With --json the last line of stdout is the result object of issue 3.
 */
import { ENGINE_NAMES, type EngineName } from './engine';
import { BENCH_OPTIONS } from './options';
import { checkTargets, formatMinScaling, formatTable, formatTargets } from './report';
import { CODE_WARMUP_STEPS, FALL_HEIGHT_M, loadRagdollFile, minKey, runBenchmark, type BenchOptions, type SceneName } from './runBenchmark';

export const BENCH_USAGE = `usage: bench [options]
${BENCH_OPTIONS}`;

export interface BenchArgs { json: boolean; help: boolean; options: BenchOptions }

const SCENES: readonly SceneName[] = ['ragdoll11', 'pile500'];

function list(flag: string, value: string | undefined): string[] {
  if (value === undefined || value.startsWith('--')) throw new Error(`bench: ${flag} needs a value`);
  const items = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (items.length === 0) throw new Error(`bench: ${flag} needs at least one value`);
  return items;
}

function integer(flag: string, text: string, min: number): number {
  const v = Number(text);
  if (!Number.isInteger(v) || v < min) throw new Error(`bench: ${flag} must be an integer ≥ ${min} (got "${text}")`);
  return v;
}

/** Parse the command line. @throws Error naming the option and the reason. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const options: BenchOptions = {};
  let json = false, help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => (inline !== undefined ? inline : argv[++i]);
    switch (flag) {
      case '--json': json = true; break;
      case '--help': case '-h': help = true; break;
      case '--engines':
        options.engines = list(flag, value()).map((e) => {
          if (!(ENGINE_NAMES as readonly string[]).includes(e)) throw new Error(`bench: --engines: unknown engine "${e}" (known: ${ENGINE_NAMES.join(', ')})`);
          return e as EngineName;
        });
        break;
      case '--n':
        options.counts = list(flag, value()).map((s) => integer('--n', s, 1));
        break;
      case '--scenes':
        options.scenes = list(flag, value()).map((s) => {
          if (!(SCENES as readonly string[]).includes(s)) throw new Error(`bench: --scenes: unknown scene "${s}" (known: ${SCENES.join(', ')})`);
          return s as SceneName;
        });
        break;
      case '--motors':
        options.motors = list(flag, value()).map((s) => {
          if (s !== 'on' && s !== 'off') throw new Error(`bench: --motors: "${s}" is neither on nor off`);
          return s === 'on';
        });
        break;
      case '--steps': {
        const v = value();
        if (v === undefined) throw new Error('bench: --steps needs a value');
        options.timedSteps = integer('--steps', v, 1);
        break;
      }
      case '--warmup': {
        const v = value();
        if (v === undefined) throw new Error('bench: --warmup needs a value');
        options.warmupSteps = integer('--warmup', v, 0);
        break;
      }
      case '--code-warmup': {
        const v = value();
        if (v === undefined) throw new Error('bench: --code-warmup needs a value');
        options.codeWarmupSteps = integer('--code-warmup', v, 0);
        break;
      }
      case '--isolation': {
        const v = value();
        if (v !== 'worker' && v !== 'shared') throw new Error(`bench: --isolation must be worker or shared (got "${String(v)}")`);
        options.isolation = v;
        break;
      }
      default:
        throw new Error(`bench: unknown option "${arg}"\n${BENCH_USAGE}`);
    }
  }
  return { json, help, options };
}

export interface BenchIO {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Show progress lines on err (when it is a terminal). */
  progress: boolean;
}

/** Run the benchmark from command-line arguments; returns the process exit code. */
export async function benchMain(argv: readonly string[], io: BenchIO): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(argv);
  } catch (err) {
    io.err((err as Error).message);
    return 2;
  }
  if (args.help) {
    io.out(BENCH_USAGE);
    return 0;
  }
  const result = await runBenchmark({ ...args.options, ...(io.progress ? { onProgress: (line: string) => io.err(line) } : {}) });
  io.out(formatTable(result));
  const { bench, world } = loadRagdollFile();
  const warmup = args.options.warmupSteps ?? bench.warmupSteps, timed = args.options.timedSteps ?? bench.timedSteps;
  const qualityStep = Math.min(bench.qualityAtStep, warmup + timed);
  const codeWarmup = args.options.codeWarmupSteps ?? CODE_WARMUP_STEPS;
  io.out(
    `ms/step: median of ${timed} timed steps after ${warmup} warm-up steps, the engines of a scene stepped in turn` +
      (args.options.isolation === 'worker' ? ', each engine in its own worker thread' : ', all engines in one isolate') +
      (codeWarmup > 0 ? `, each engine's code warmed first by ${codeWarmup} steps of a throwaway ragdoll11 × 1 with motors on and off` : ', no code warm-up') +
      `; drift after step ${qualityStep} ` +
      `(t = ${(qualityStep * world.dt).toFixed(2)} s); fall: first time copy 0's head is below ${FALL_HEIGHT_M} m within ${warmup + timed} steps.`,
  );
  io.out('');
  const counts = args.options.counts ?? bench.counts;
  const big = Math.max(...counts);
  const small = counts.filter((c) => c < big).reduce((a, b) => Math.max(a, b), 0);
  io.out(formatTargets(checkTargets(result.results, big, small > 0 ? small : null)));
  if (small > 0 && result.minMsPerStep) {
    const line = formatMinScaling(result.minMsPerStep, (n, engine) => minKey('ragdoll11', n, engine, true), big, small);
    if (line) io.out(line);
  }
  for (const warning of result.warnings ?? []) io.out(`warning: ${warning}`);
  // Exactly the object of issue 3, nothing else.
  if (args.json) io.out(JSON.stringify({ results: result.results, nsPerRowIteration: result.nsPerRowIteration }));
  return 0;
}
