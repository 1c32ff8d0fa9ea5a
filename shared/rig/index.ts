/** The rig format: schema, types, validation, migrations, load/save. */
export * from './schema';
export { validateRig, locateJsonError, RigError, DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, type RigValidation, type ValidateOptions } from './validate';
export { loadRig, serializeRig } from './load';
export { migrations, migrate, type Migration } from './migrations';
export { formatProblem, type RigProblem } from './problems';
export { boneRestWorld, bodyRestWorld, orderBones, type BoneWorld } from './restPose';
export { ANCHOR_TOLERANCE } from './semantics';
export { rigJsonSchema, rigJsonSchemaText, RIG_SCHEMA_ID } from './jsonSchema';
