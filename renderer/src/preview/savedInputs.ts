/**
 * The timeline's inputs as a saved project keeps them (shared/editor: platform.preview.list / replace).
 * A project's inputs go back after the preview's own reset for the project's new creature (client.ts
 * queues that reset in a microtask when the creature changes; this is queued after it, in the same task).
 */
import type { PreviewInput } from '../../../shared/preview/input';
import { previewClient } from './client';
import { usePreview } from './previewStore';

export const timelineInputs = (): PreviewInput[] => [...usePreview.getState().inputs];

/** Calls `changed` whenever the timeline's inputs change (the editor then knows the project is unsaved). */
export function watchTimelineInputs(changed: () => void): () => void {
  return usePreview.subscribe((s, p) => { if (s.inputs !== p.inputs) changed(); });
}

export function replaceTimelineInputs(inputs: readonly PreviewInput[]): void {
  const copy = [...inputs];
  queueMicrotask(() => previewClient().setInputs(copy));
}
