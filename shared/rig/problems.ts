/** The rig's problems are the shared ones (shared/problems.ts: path + sentence, zod issues rewritten). */
export * from '../problems';
