import './noEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { isTestBuild } from './testing/testBuild';
import { installTestHooks } from './testing/testHooks';
import { connectView, editor } from './state/editor';
import { getViewportHandle } from './viewport/viewportHandle';
import { applyImpulseAt, blast, grab, moveGrab, releaseGrab, setLimp } from './authoring/preview';
import { replaceTimelineInputs, timelineInputs, watchTimelineInputs } from './preview/savedInputs';
import './styles.css';

type V3 = [number, number, number];
const v3 = (v: readonly number[]): V3 => [v[0]!, v[1]!, v[2]!];
// The editor's view-side parts: the camera a saved project records, and the preview its inputs go to.
connectView({
  cameraPose: () => getViewportHandle()?.cameraPose() ?? null,
  preview: {
    applyImpulseAt: (body, point, impulse) => applyImpulseAt(body, v3(point), v3(impulse)),
    blast: (centre, radius, strength) => blast(v3(centre), radius, strength),
    grab: (body, point) => grab(body, v3(point)),
    moveGrab: (target) => moveGrab(v3(target)),
    releaseGrab,
    setLimp,
    // Saved with the project and put back when it opens (shared/editor files.ts).
    list: timelineInputs,
    replace: replaceTimelineInputs,
  },
});

// Inputs that differ from the saved ones are unsaved changes (the title's dot, the close prompt, autosave).
watchTimelineInputs(() => editor.inputsChanged());

// Test build only: the window.__marionette* hooks, all installed here (testing/testHooks.ts).
if (isTestBuild) installTestHooks();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
