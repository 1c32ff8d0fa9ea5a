/** What the viewport last drew from the preview: the frame index and a copy of its flat frame (the test
 *  hook compares it with the recording). Module scope: written in useFrame, never rendered. */
export const shownPose: { index: number; frame: Float64Array | null } = { index: -1, frame: null };
