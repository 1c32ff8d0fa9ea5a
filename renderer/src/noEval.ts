/**
 * The Content-Security-Policy allows no eval (shared/ipc.ts). zod compiles object parsers with
 * `new Function` when it can, and probes for that with a `new Function("")` the policy blocks and
 * reports; jitless mode skips both (same results, a little slower). Imported first by each entry point.
 */
import { config } from 'zod';

config({ jitless: true });
