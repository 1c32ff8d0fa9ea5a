import { useEffect, useMemo } from 'react';
import { useFrame } from '@react-three/fiber';
import { useEditor } from '../state/store';
import { creatureBounds } from '../creature/loadDisplay';
import { SkeletonOverlay } from './skeletonOverlay';
import { bonePickingHandlers } from './bonePicking';
import { boneHighlight } from './boneHighlight';
import { Vector3 } from 'three';
import { editorExtras } from '../../../shared/document';
import type { RigDocument } from '../../../shared/rig';
import { useAuthoring } from '../authoring/authoringStore';

// Recomputed only when the rig object changes (documents are immutable).
let lastRig: RigDocument | null = null;
let lastExcluded: ReadonlySet<string> = new Set();
function excludedOf(rig: RigDocument | null): ReadonlySet<string> {
  if (rig !== lastRig) { lastRig = rig; lastExcluded = new Set(rig ? editorExtras(rig).excludedBones : []); }
  return lastExcluded;
}

export let activeSkeletonOverlay: SkeletonOverlay | null = null;

export function SkeletonLayer() {
  const creature = useEditor((s) => s.creature);
  const show = useEditor((s) => s.session.showSkeleton);
  // The Generate dialog's preview is drawn on the skeleton: shown while the dialog is open.
  const planShown = useAuthoring((s) => s.planPreview !== null);
  const overlay = useMemo(() => {
    if (!creature) return null;
    const size = creatureBounds(creature.display).getSize(new Vector3()).length();
    return new SkeletonOverlay(creature, size);
  }, [creature]);
  useEffect(() => {
    activeSkeletonOverlay = overlay;
    return () => { overlay?.dispose(); if (activeSkeletonOverlay === overlay) activeSkeletonOverlay = null; };
  }, [overlay]);
  useFrame(() => {
    if (!overlay) return;
    // Read, don't subscribe: selection/hover changes recolour without a React render.
    const { session, document } = useEditor.getState();
    const excluded = excludedOf(document?.rig ?? null);
    // By the selection's kind, not its name: body "shin_l" and joint "shin_l" are not bone "shin_l".
    overlay.update(boneHighlight(session.selection, session.hover, document?.rig ?? null), excluded, useAuthoring.getState().planPreview);
  });
  if (!overlay) return null;
  return <primitive object={overlay.group} visible={show || planShown} {...bonePickingHandlers} />;
}
