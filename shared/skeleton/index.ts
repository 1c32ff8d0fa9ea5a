/** Rigged creatures read from glTF 2.0, independent of three.js: skeleton, skins, what each bone's
 *  skinned vertices look like, and animation clips with sampling. */
export * from './types';
export { CreatureLoadError } from './errors';
export { parseCreature, parseSkeleton, boneIndex, jointOrder, type ParseOptions } from './parseCreature';
export { restPose, sampleClip, sampleChannel, poseToWorld, type KeyTrack } from './animation';
// The layers under parseCreature, for readers of other parts of a glTF file (e.g. clips one by one).
export { readContainer, type Container } from './container';
export { GltfDocument, type AccessorData } from './gltfDocument';
export { readClips } from './animation';
export { rigidBones, mapChannelValues, type RigidBone, type RigidChannelMap } from './rigid';
