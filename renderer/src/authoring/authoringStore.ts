/**
 * Authoring session state (never saved, never undone): the gizmo mode, the extra selection for multi-joint
 * and two-body operations, the motor clipboard, the poke strength and the generate dialog.
 */
import { create } from 'zustand';
import type { RigMotor } from '../../../shared/rig';

export type GizmoMode = 'translate' | 'rotate' | 'scale';

export interface AuthoringSession {
  gizmoMode: GizmoMode;
  /** Viewport tool: select bodies, or poke the preview (impulse, grab, blast). */
  tool: 'select' | 'poke';
  /** Ctrl/Shift-clicked rows besides the primary selection, by kind. */
  extraBodies: string[];
  extraJoints: string[];
  /** Copied motor settings and the joint they came from. */
  motorClipboard: { from: string; motor: RigMotor } | null;
  /** Impulse applied by a click in the preview (N·s). */
  impulseStrength: number;
  /** Radial blast impulse (N·s at the centre) for shift-click. */
  blastStrength: number;
  generateDialog: boolean;
  /** While the Generate dialog is open: its plan, which the viewport draws on the skeleton (bones that get
   *  a body, bones merged into another's body, bones excluded); null otherwise. */
  planPreview: PlanPreview | null;
  /** True while a viewport gizmo is being dragged (the orbit camera is off). */
  dragging: boolean;
}

export interface PlanPreview {
  bodies: readonly string[];
  merged: readonly string[];
  excluded: readonly string[];
}

export const useAuthoring = create<AuthoringSession>()(() => ({
  gizmoMode: 'translate',
  tool: 'select',
  extraBodies: [],
  extraJoints: [],
  motorClipboard: null,
  impulseStrength: 8,
  blastStrength: 30,
  generateDialog: false,
  planPreview: null,
  dragging: false,
}));

export const setAuthoring = (patch: Partial<AuthoringSession>): void => useAuthoring.setState(patch);
