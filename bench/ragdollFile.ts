/**
 * The benchmark ragdoll file (bench/scenes/ragdoll11.json): schema and semantic checks.
 *
 * The file's `conventions` field is normative; this module only checks that the numbers obey them
 * (positive sizes and masses, unit and perpendicular joint axes, ordered limits, known body names) so
 * that every engine adapter can trust what it reads. A bad file is rejected with a message that names
 * the file, the field and the reason.
 */
import { z } from 'zod';

const vec3 = z.tuple([z.number(), z.number(), z.number()]);
const positive = z.number().positive();
const nonNegative = z.number().nonnegative();

const motorSchema = z.object({
  /** N·m/rad */
  stiffness: nonNegative,
  /** N·m·s/rad */
  damping: nonNegative,
  /** N·m, per motor axis */
  maxTorque: nonNegative,
});

const bodySchema = z.object({
  name: z.string().min(1),
  shape: z.literal('capsule'),
  axis: z.enum(['x', 'y', 'z']),
  radius: positive,
  /** Half the cylindrical part (m): total length = 2·halfHeight + 2·radius. */
  halfHeight: nonNegative,
  mass: positive,
  position: vec3,
});

const jointBase = {
  name: z.string().min(1),
  parent: z.string().min(1),
  child: z.string().min(1),
  anchor: vec3,
  motor: motorSchema,
};

const ballJointSchema = z.object({
  ...jointBase,
  type: z.literal('ball'),
  twistAxis: vec3,
  planeAxis: vec3,
  twistLimit: z.tuple([z.number(), z.number()]),
  swingLimitY: nonNegative,
  swingLimitZ: nonNegative,
});

const hingeJointSchema = z.object({
  ...jointBase,
  type: z.literal('hinge'),
  axis: vec3,
  normalAxis: vec3,
  limit: z.tuple([z.number(), z.number()]),
});

const ragdollFileSchema = z.object({
  name: z.string(),
  version: z.literal(1),
  world: z.object({ gravity: vec3, dt: positive }),
  material: z.object({ friction: nonNegative, restitution: z.number().min(0).max(1), linearDamping: nonNegative, angularDamping: nonNegative }),
  ground: z.object({ shape: z.literal('box'), halfExtents: z.tuple([positive, positive, positive]), position: vec3 }),
  copies: z.object({ spacing: positive }),
  bodies: z.array(bodySchema).min(1),
  joints: z.array(z.discriminatedUnion('type', [ballJointSchema, hingeJointSchema])),
  headBody: z.string(),
  bench: z.object({
    counts: z.array(z.number().int().positive()).min(1),
    warmupSteps: z.number().int().nonnegative(),
    timedSteps: z.number().int().positive(),
    qualityAtStep: z.number().int().positive(),
  }),
});

export type RagdollFile = z.infer<typeof ragdollFileSchema>;
export type RagdollBody = z.infer<typeof bodySchema>;
export type RagdollJoint = RagdollFile['joints'][number];
export type RagdollMotor = z.infer<typeof motorSchema>;

/** Axes must be unit length to 1e-6 and perpendicular to 1e-6 (cosine): the joint frames are built from them. */
const AXIS_TOLERANCE = 1e-6;

/**
 * Parse and check a ragdoll file. `source` names the file in error messages.
 * @throws Error naming `source`, the field path and the reason.
 */
export function parseRagdollFile(json: unknown, source: string): RagdollFile {
  const parsed = ragdollFileSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`${source}: invalid ragdoll file\n${lines.join('\n')}`);
  }
  const file = parsed.data;
  const fail = (field: string, reason: string): never => {
    throw new Error(`${source}: ${field}: ${reason}`);
  };

  const names = new Set<string>();
  file.bodies.forEach((body, i) => {
    if (names.has(body.name)) fail(`bodies.${i}.name`, `duplicate body name "${body.name}"`);
    names.add(body.name);
  });
  if (!names.has(file.headBody)) fail('headBody', `"${file.headBody}" is not a body name`);

  const unit = (v: readonly number[], field: string) => {
    const len = Math.hypot(v[0]!, v[1]!, v[2]!);
    if (Math.abs(len - 1) > AXIS_TOLERANCE) fail(field, `must be a unit vector (length is ${len})`);
  };
  const perpendicular = (a: readonly number[], b: readonly number[], field: string) => {
    const cos = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
    if (Math.abs(cos) > AXIS_TOLERANCE) fail(field, `must be perpendicular to the joint's main axis (cosine ${cos})`);
  };

  file.joints.forEach((joint, i) => {
    const at = `joints.${i} (${joint.name})`;
    if (!names.has(joint.parent)) fail(`${at}.parent`, `"${joint.parent}" is not a body name`);
    if (!names.has(joint.child)) fail(`${at}.child`, `"${joint.child}" is not a body name`);
    if (joint.parent === joint.child) fail(`${at}.child`, 'a joint needs two different bodies');
    if (joint.type === 'ball') {
      unit(joint.twistAxis, `${at}.twistAxis`);
      unit(joint.planeAxis, `${at}.planeAxis`);
      perpendicular(joint.twistAxis, joint.planeAxis, `${at}.planeAxis`);
      const [lo, hi] = joint.twistLimit;
      if (!(lo <= 0 && 0 <= hi)) fail(`${at}.twistLimit`, `must be [min ≤ 0, max ≥ 0] so the rest pose is inside (got [${lo}, ${hi}])`);
      if (joint.swingLimitY > Math.PI || joint.swingLimitZ > Math.PI) fail(`${at}.swingLimitY/Z`, 'a swing half-angle is at most π');
    } else {
      unit(joint.axis, `${at}.axis`);
      unit(joint.normalAxis, `${at}.normalAxis`);
      perpendicular(joint.axis, joint.normalAxis, `${at}.normalAxis`);
      const [lo, hi] = joint.limit;
      if (!(lo <= 0 && 0 <= hi)) fail(`${at}.limit`, `must be [min ≤ 0, max ≥ 0] so the rest pose is inside (got [${lo}, ${hi}])`);
    }
  });
  if (file.bench.qualityAtStep > file.bench.warmupSteps + file.bench.timedSteps) {
    fail('bench.qualityAtStep', 'must fall inside the run (warmupSteps + timedSteps)');
  }
  return file;
}
