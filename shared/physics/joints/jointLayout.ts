/**
 * Every joint lives in one Float64Array (`JointStore.data`) as a fixed-stride record: its configuration,
 * its state (unwrapped angle, error, motor report) and its solver cache (arms, effective masses, biases,
 * accumulated impulses). One array means the whole joint state snapshots with one copy, and the solver
 * walks memory in order. These are the field offsets inside a record. The fields are shared by the types
 * (registry.ts): a type uses the ones its rows need and may reuse the cache fields another type uses for
 * something else; a new type that needs more adds them here and raises STRIDE.
 */
export const STRIDE = 174;

// ---- configuration
export const TYPE = 0; // the type's code: its index in registry.ts JOINT_TYPES
export const BODY_A = 1, BODY_B = 2;
export const FLAGS = 3; // FLAG_* bits
export const LA = 4; // anchor on A relative to A's centroid, body A axes (3)
export const QA = 7; // frame A rotation in body A (4)
export const LB = 11, QB = 14;
export const LIM_LO = 18, LIM_HI = 19; // hinge angle / prismatic offset / ball twist, signed
export const SWING_Y = 20, SWING_Z = 21; // ball swing half-angles about frame Y and Z (rad)
export const M_MODE = 22; // MOTOR_* code
export const M_MAX = 23; // τmax (N·m; N for prismatic)
export const M_R = 24, M_KP = 25, M_KV = 26, M_FRICTION = 27;
export const T_Q = 28; // target: quaternion (4) for ball; T_Q holds the angle/offset for hinge/prismatic
export const T_V = 32; // target velocity (3; first only for hinge/prismatic), frame A axes

// ---- state
export const ANGLE = 35; // unwrapped hinge angle (rad) / prismatic offset (m), continuous across ±π
export const ERROR = 36; // positional anchor error after the last prepare (m)
export const M_TORQUE = 37, M_SATURATED = 38;
/** Motor report: ‖λ_acc‖/h, the torque vector's magnitude (the largest over the step's substeps, as M_TORQUE). */
export const M_TORQUE_NORM = 39;

// ---- solver cache (rebuilt by prepare every substep; impulses carried for warm starting)
export const RA = 40, RB = 43; // world arms from centroids to the anchors
export const PK = 46; // point block inverse K, symmetric: xx xy xz yy yz zz
export const PC = 52; // point position error C = pB + rB − pA − rA (m)
export const PI = 55; // point accumulated impulse (N·s)
export const AX1 = 58, AX2 = 61, AX3 = 64; // angular lock row axes (world)
export const AK = 67; // angular lock inverse K (sym 3×3, or 2×2 in AK, AK+1, AK+3)
export const AC = 73; // angular lock errors (rad)
export const AI = 76; // angular lock impulses (N·m·s)
export const N1 = 79, N2 = 82; // prismatic: perpendicular directions (world)
export const JA1 = 85, JA2 = 88; // prismatic: (rA + d) × n_i
export const JB1 = 91, JB2 = 94; // prismatic: rB × n_i
export const LK = 97; // prismatic 2×2 inverse K: 11 12 22
export const LC = 100, LI = 102; // prismatic perpendicular errors (2), impulses (2)
export const LIM_AXIS = 104; // limit row axis (world); for prismatic the slide axis
export const LIM_MASS = 107;
export const LIM_C_LO = 108, LIM_C_HI = 109; // C = value − lo ≥ 0 and C = hi − value ≥ 0
export const LIM_I_LO = 110, LIM_I_HI = 111;
export const SW_AXIS = 112, SW_MASS = 115, SW_C = 116, SW_I = 117; // ball swing cone row
export const MAXIS = 118; // motor row axes (3×3, world)
export const M_MASS = 127; // motor row effective masses (3), already softened
export const M_RHS = 130; // motor row target relative velocities (3)
export const M_I = 133; // motor accumulated impulses (3)
export const M_GAMMA = 136; // motor softness γ (0 for rigid rows)
export const SJA = 137, SJB = 140; // prismatic slide-axis row angular Jacobians: (rA + d) × a, rB × a
/** Clamp the motor rows use this substep: τmax in drive modes, the friction torque in mode 'off' (N·m or N). */
export const M_CLAMP = 143;
/** Position-correction bookkeeping (positionCorrection.ts): the part of the point error (3, m) and of the
 *  angular lock error (3, rad) that was already there at the start of the substep and not yet removed.
 *  That part is projected away without a velocity change; the drift the substep itself made is removed
 *  with the matching velocity change (SHAKE). */
export const PC_OLD = 144, AC_OLD = 147;
/** Drive hold (positionProjection.ts holdDrive; jointCorrection 'projection' only, so it overlays PC_OLD/AC_OLD):
 *  1 when the joint's drive held its target inside its torque clamp this substep, and the frames' relative
 *  rotation right after the positions were integrated (4: x y z w, frame B in frame A's axes). */
export const HOLD_ON = 144, HOLD_Q = 145;

// ---- screw / cylindrical / planar (coupledJoint.ts). Their rows are generic (one row: a linear direction n
// and the angular parts for A and B) and overlay the cache fields the other types use for their own rows:
/** 6 row geometries of G_SIZE fields: n (3), a_A (3), a_B (3), K (1), 1/K (1), C (1). */
export const G_ROWS = 40, G_SIZE = 12;
/** Accumulated impulses: hard row g at G_IMP + g (g < 6); limits lo/hi: rotation +6/+7, slide 1 +8/+9, slide 2 +10/+11. */
export const G_IMP = 112;
/** Limit errors C ≥ 0: rotation lo/hi, slide 1 lo/hi, slide 2 lo/hi (6). */
export const G_LIMC = 144;
// configuration and the slide motor (new fields):
/** Screw pitch (m/rad): the offset along frame X is pitch × the angle about it. */
export const PITCH = 150;
/** Slide limits: slide 1 lo, hi; slide 2 lo, hi (m). Slide 1 is the cylindrical joint's X or the planar Y; slide 2 the planar Z. */
export const SLIDE_LIM = 151;
/** The slide motor's configuration (as M_MODE … M_FRICTION; force units). Its targets are T_Q + 1 + k (m) and T_V + 1 + k (m/s). */
export const S_MODE = 155, S_MAX = 156, S_R = 157, S_KP = 158, S_KV = 159, S_FRICTION = 160;
/** The slide motor's report (N; as M_TORQUE, M_TORQUE_NORM, M_SATURATED). */
export const S_TORQUE = 161, S_TORQUE_NORM = 162, S_SATURATED = 163;
/** The slide motor rows' cache: rhs (2), effective masses (2), impulses (2), softness, clamp. */
export const S_RHS = 164, S_MASS = 166, S_I = 168, S_GAMMA = 170, S_CLAMP = 171;
/** The drives' speed limits (MotorDesc.maxSpeed; rad/s, m/s for slides): the joint's own motor, the slide motor. */
export const M_SPEED = 172, S_SPEED = 173;

export const FLAG_LIMIT = 1, FLAG_TWIST = 2, FLAG_SWING = 4, FLAG_COLLIDE = 8;
/** MotorDesc.torqueLimit 'magnitude': the motor rows' accumulated impulse vector is clamped to a ball. */
export const FLAG_TORQUE_BALL = 16;
/** Slide limits of coupledJoint.ts (slide 1, slide 2) and its slide motor's torqueLimit 'magnitude'. */
export const FLAG_SLIDE1_LIMIT = 32, FLAG_SLIDE2_LIMIT = 64, FLAG_SLIDE_TORQUE_BALL = 128;
export const MOTOR_OFF = 0, MOTOR_POSITION = 1, MOTOR_PD = 2, MOTOR_VELOCITY = 3;

export const MOTOR_MODE_CODES = { off: MOTOR_OFF, position: MOTOR_POSITION, pd: MOTOR_PD, velocity: MOTOR_VELOCITY } as const;
