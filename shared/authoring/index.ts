/** Authoring: generate a powered ragdoll from a skeleton and edit it, as pure functions over RigDocument
 *  (docs/authoring.md). The editor UI calls these and records their results for undo. */
export * from './skeletonInput';
export { sampleClip, clipDuration, type LocalBonePose } from './clip';
export { authoringSkeletonFromCreature, rigBone, rigBonesFromSkeleton, namedClip } from './fromCreature';
export { boneGeometry, type BoneGeometry } from './boneGeometry';
export { chooseJoints, mirrorAxis, type JointChoice, type JointReason } from './jointChoice';
export { generateRagdoll, jointDefaults, motorFor, lowestPoint, measureInput, DEFAULT_DENSITY, DEFAULT_BIPED_MASS, MAX_RATIO, MIN_LENGTH_FRACTION, MIN_RADIUS_FRACTION, SOLE_FRACTION, type GenerateOptions, type GeneratedRagdoll, type GenerateSummary, type ShapeKind, type ShapeChoice } from './generate';
export { planBones, type BonePlan, type BonePlanReason } from './bodyPlan';
export { boneAnatomy, isRecognisedBiped, type BoneAnatomy, type Role, type Side } from './anatomy';
export { PLAUSIBLE_HEIGHT, measureSkeleton, scaleProblem, scaleForHeight, scaleSkeleton, rescaleRig, type CreatureMeasure, type ScaleProblem } from './creatureScale';
export { checkRigPlausibility, checkRestOverlaps, checkUnboundedSlides, fixRestOverlaps, type RigWarning, type RestOverlap } from './plausibility';
export { runTrial, type TrialResult } from './trial';
export { newRigDocument, withGeneratedRagdoll, DEFAULT_SIMULATION } from './document';
export { type EditResult, finishEdit } from './editResult';
export * from './bodyEdits';
export * from './jointEdits';
export * from './pathEdits';
export { mirrorSide, mirrorTransform, type MirrorOptions } from './mirror';
export { mirrorName, sideOf } from './names';
export { applyMotorPreset, MOTOR_PRESETS, type MotorPreset } from './presets';
export { checkMassRatios, fixMassRatios, type MassRatioIssue } from './massRatio';
export { pdGainsFromFrequency, frequencyFromPdGains, jointEffectiveInertia, inertiaAboutPoint, type PdGains } from './pdGains';
export { inheritVelocity, type PoseSample } from './velocity';
export { animationTargets, type AnimationTargetOptions } from './animationTargets';
export { transferRig, matchBones, type TransferResult, type BoneMatch, type BoneMatchKind } from './transfer';
export { applyGaitPreset, setGaitPreset, gaitPresetPhases, limbsOf, GAIT_PRESETS, type GaitPreset, type GaitPresetInfo, type Limb } from './gaitPresets';
