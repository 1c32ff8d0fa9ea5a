/** Authoring: generate a powered ragdoll from a skeleton and edit it, as pure functions over RigDocument
 *  (docs/authoring.md). The editor UI calls these and records their results for undo. */
export * from './skeletonInput';
export { sampleClip, clipDuration, type LocalBonePose } from './clip';
export { authoringSkeletonFromCreature, rigBone, rigBonesFromSkeleton, namedClip } from './fromCreature';
export { boneGeometry, type BoneGeometry } from './boneGeometry';
export { chooseJoints, mirrorAxis, type JointChoice, type JointReason } from './jointChoice';
export { generateRagdoll, jointDefaults, motorFor, DEFAULT_DENSITY, type GenerateOptions, type GeneratedRagdoll, type ShapeKind } from './generate';
export { newRigDocument, withGeneratedRagdoll, DEFAULT_SIMULATION } from './document';
export { type EditResult, finishEdit } from './editResult';
export * from './bodyEdits';
export * from './jointEdits';
export { mirrorSide, mirrorTransform, type MirrorOptions } from './mirror';
export { mirrorName, sideOf } from './names';
export { applyMotorPreset, MOTOR_PRESETS, type MotorPreset } from './presets';
export { checkMassRatios, fixMassRatios, type MassRatioIssue } from './massRatio';
export { pdGainsFromFrequency, frequencyFromPdGains, jointEffectiveInertia, inertiaAboutPoint, type PdGains } from './pdGains';
export { inheritVelocity, type PoseSample } from './velocity';
export { animationTargets, type AnimationTargetOptions } from './animationTargets';
