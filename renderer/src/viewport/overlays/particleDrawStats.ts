/**
 * What the particle layer (ParticleLayer.tsx) drew last — bone capsules, particle dots, the frame shown
 * (−1: nothing) and the bone drawn in the pick colour — for the test hook (preview/particleTestHook.ts,
 * installed by the app shell through testing/testHooks.ts), never for React. Its own module so the layer,
 * which writes this, and the hook, which reads it, do not import each other.
 */
export const particleDrawStats = { bones: 0, particles: 0, frame: -1, picked: null as string | null };
