/** `npm run bench`: the physics benchmark of issue 3 (see bench/main.ts for the options). */
import { benchMain } from './main';

// Each engine in its own worker thread unless asked otherwise (runBenchmark's `isolation`; the bundled
// `marionette bench` runs them all in its one isolate).
const argv = process.argv.slice(2);
if (!argv.some((a) => a === '--isolation' || a.startsWith('--isolation='))) argv.push('--isolation', 'worker');
process.exitCode = await benchMain(argv, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  progress: process.stderr.isTTY === true,
});
