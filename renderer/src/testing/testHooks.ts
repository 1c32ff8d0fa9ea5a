/**
 * The test build's read-only hooks on window, installed once by the app shell (main.tsx, only when
 * isTestBuild) — never as a side effect of importing a view component:
 *   __marionette (testHook.ts: the editor), __marionettePreview (preview/testHook.ts: the preview and the
 *   path gizmo), __marionetteParticles (preview/particleTestHook.ts), __marionetteAuthoring
 *   (authoring/testHook.ts), __marionetteLive (preview/live.ts: Live simulate), __marionettePool
 *   (preview/poolTestHook.ts: the preview's worker pool).
 */
import { installTestHook } from './testHook';
import { installPreviewTestHook } from '../preview/testHook';
import { installParticleTestHook } from '../preview/particleTestHook';
import { installAuthoringTestHook } from '../authoring/testHook';
import { installLiveTestHook } from '../preview/live';
import { installPoolTestHook } from '../preview/poolTestHook';

export function installTestHooks(): void {
  installTestHook();
  installPreviewTestHook();
  installParticleTestHook();
  installAuthoringTestHook();
  installLiveTestHook();
  installPoolTestHook();
}
