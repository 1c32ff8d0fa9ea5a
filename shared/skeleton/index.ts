/** Rigged creatures read from glTF 2.0, independent of three.js: skeleton, skins, what each bone's
 *  skinned vertices look like, and animation clips with sampling. */
export * from './types';
export { CreatureLoadError } from './errors';
export { parseCreature, boneIndex } from './parseCreature';
export { restPose, sampleClip, sampleChannel, poseToWorld } from './animation';
