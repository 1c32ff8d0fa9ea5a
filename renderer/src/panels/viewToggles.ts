/**
 * The preview's view toggles, once for the toolbar's Overlays group and the web View menu (the native View
 * menu in electron/menuTemplate.ts lists the same overlays in the same order as "Toggle …" items; a unit
 * test keeps the three in step). Bodies is the one switch for the rig's shapes and Joints the one for the
 * joints' axes and limits (draggable arc and slide ends on the selected joint), while editing and while previewing —
 * there is no second, preview-only bodies or joints overlay.
 */
import type { PreviewOverlay } from '../../../shared/platform';

export interface ViewToggle {
  key: PreviewOverlay;
  /** Short label on the toolbar button. */
  label: string;
  /** The toolbar button's accessible name. */
  name: string;
  /** The View menu item. */
  menu: string;
  /** Tooltip. */
  title: string;
}

export const VIEW_TOGGLES: readonly ViewToggle[] = [
  { key: 'bodies', label: 'Bodies', name: 'Show bodies', menu: 'Show Bodies', title: "Show bodies: the rig's collision shapes, at rest or where the preview has them (grey where limp)" },
  { key: 'joints', label: 'Joints', name: 'Show joints and limits', menu: 'Show Joints and Limits', title: "Show joints: axes and limits (hinge arcs, swing cones, twist fans, slide ranges), at rest or where the preview has them; drag the selected joint's arc and slide ends to set its limits" },
  { key: 'torque', label: 'Torque', name: 'Show motor torque', menu: 'Show Motor Torque', title: 'Show motor torque (blue idle → red saturated)' },
  { key: 'contacts', label: 'Contacts', name: 'Show contacts', menu: 'Show Contacts', title: 'Show contact points' },
  { key: 'path', label: 'Path', name: 'Show gait path', menu: 'Show Gait Path', title: 'Show the gait path and its handles' },
];
