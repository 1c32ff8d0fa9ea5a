// Viewport colours, shared by the drawing code and the test hook (which counts highlight pixels).
export const VIEWPORT_BACKGROUND = '#26282c';
export const BONE_COLOR = '#7fb2e5';
export const BONE_HOVER_COLOR = '#c9e2ff';
/** Pure, saturated orange: easy to tell apart from every shaded surface in the scene. */
export const BONE_SELECTED_COLOR = '#ff8c00';
export const BONE_EXCLUDED_COLOR = '#6b7280';
/** The bone a selected body rides on: a soft yellow, secondary to the selection orange. */
export const BONE_BODY_COLOR = '#e5d36b';
/** The Generate dialog's preview: a bone that gets a body (a saturated green, apart from every other bone colour). */
export const BONE_PLAN_BODY_COLOR = '#22e07a';
/** The Generate dialog's preview: a bone merged into the body above it (a muted violet). */
export const BONE_PLAN_MERGED_COLOR = '#9d7cf0';
