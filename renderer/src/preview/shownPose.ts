/** What the viewport last drew from the preview: the frame index, the generation of the recording it came
 *  from (the rig edit it shows) and a copy of its flat frame (the test hook compares it with the recording;
 *  the latency benchmark waits for an edit's frame). Module scope: written in useFrame, never rendered. */
export const shownPose: { index: number; generation: number; frame: Float64Array | null } = { index: -1, generation: 0, frame: null };
