/** `npm run bench`: the physics benchmark of issue 3 (see bench/main.ts for the options). */
import { benchMain } from './main';

process.exitCode = await benchMain(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  progress: process.stderr.isTTY === true,
});
