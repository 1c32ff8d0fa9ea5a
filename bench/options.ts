/** The benchmark's options as help text: one list for `npm run bench -- --help` (bench/main.ts) and
 *  `marionette bench --help` (cli/commands/bench.ts), which must not import bench/main (it loads the
 *  WebAssembly engines). */
export const BENCH_OPTIONS = `  --json            print the result object as the last line of output
  --engines LIST    comma list of marionette,articulated,rapier,jolt,mujoco (default: all five;
                    articulated runs the ragdoll11 scenes of one copy)
  --n LIST          ragdoll copy counts (default: 1,16,128)
  --scenes LIST     ragdoll11,pile500 (default: both)
  --motors LIST     on,off (default: both)
  --steps N         timed steps (default 600)
  --warmup N        warm-up steps of each measured world (default 60)
  --code-warmup N   steps each engine first runs on a throwaway ragdoll11 x 1, motors on
                    and off, to warm its code (default 1000; 0: none)
  --isolation MODE  worker: each engine in its own worker thread (own V8 isolate), stepped
                    in turn (npm run bench's default); shared: all in one isolate (the
                    default of marionette bench, and the protocol before 2026-11-28)
  -h, --help        this text`;
