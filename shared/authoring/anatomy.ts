/**
 * What a bone is, read from its name: the conventions of the rigs people bring. Recognised:
 *  - Mixamo: `mixamorig:LeftUpLeg`, `LeftLeg`, `LeftFoot`, `LeftToeBase`, `LeftShoulder` (the clavicle),
 *    `LeftArm`, `LeftForeArm`, `LeftHand`, `Hips`, `Spine1`, `Neck`, `Head`, `HeadTop_End`, fingers;
 *  - Unreal mannequin: `pelvis`, `spine_01`, `clavicle_l`, `upperarm_l`, `lowerarm_l`, `hand_l`, `thigh_l`,
 *    `calf_l`, `foot_l`, `ball_l`, `neck_01`, `head`, `*_twist_01_l`, `ik_foot_root`, `ik_hand_gun`;
 *  - Rigify: `DEF-thigh.L`, `DEF-shin.L`, `DEF-upper_arm.L`, `DEF-forearm.L`, `DEF-spine.003`; `ORG-`,
 *    `MCH-`, `VIS-`, `WGT-` bones are machinery;
 *  - ours and the common Blender names (`upper_arm_l`, `forearm_r`, `thigh.L`, `shin.R`, `Bip01 L Calf`);
 *  - animals named like the Khronos Fox (`b_RightUpperArm_06`, `b_LeftLeg01_015`, `b_Tail01_012`).
 * A name is split into lower-case tokens (namespace `xxx:` and prefixes like `DEF-`, `b_`, `Bip01` dropped;
 * camelCase, `_`, `.`, `-`, spaces and digits split), then matched token by token. Unknown names get
 * role 'other' — the generator then uses geometry alone and conservative limits.
 */

export type Side = 'left' | 'right' | null;

export type Role =
  | 'pelvis' | 'spine' | 'chest' | 'neck' | 'head' | 'clavicle'
  | 'upperArm' | 'forearm' | 'hand' | 'thigh' | 'shin' | 'foot' | 'toe' | 'finger' | 'tail' | 'other';

/** Machinery that deforms nothing a body should follow, or a slice of a body's parent (twist). */
export type HelperKind = 'ik' | 'control' | 'twist' | 'end' | 'root' | null;

export interface BoneAnatomy {
  name: string;
  tokens: string[];
  side: Side;
  role: Role;
  helper: HelperKind;
}

const NAMESPACE = /^.*[:|]/; // mixamorig:Hips, Armature|Hips
const PREFIX = /^(def|b|bn|bone|jnt|j|bip0*1|c|cc_base|rig)[-_. ]/i;
const MACHINERY = /^(org|mch|vis|wgt|ctrl|ctl|tgt|drv|helper|ik|fk|pole)[-_. ]/i;

export function tokens(name: string): string[] {
  let n = name.replace(NAMESPACE, '');
  n = n.replace(PREFIX, '');
  return n
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0);
}

export function sideOfName(name: string): Side {
  const t = tokens(name);
  const raw = name.replace(NAMESPACE, '');
  if (t.includes('left') || t.includes('l') || t.includes('lt') || /(^|[._\- ])L([._\- 0-9]|$)/.test(raw)) return 'left';
  if (t.includes('right') || t.includes('r') || t.includes('rt') || /(^|[._\- ])R([._\- 0-9]|$)/.test(raw)) return 'right';
  return null;
}

const has = (t: readonly string[], ...words: string[]) => words.some((w) => t.includes(w));
const joined = (t: readonly string[]) => t.filter((x) => !/^\d+$/.test(x) && !['l', 'r', 'left', 'right', 'lt', 'rt'].includes(x)).join('');

function helperOf(name: string, t: readonly string[]): HelperKind {
  const raw = name.replace(NAMESPACE, '');
  if (MACHINERY.test(raw) || has(t, 'ik', 'pole', 'target', 'tgt')) return 'ik';
  if (has(t, 'ctrl', 'control', 'controller', 'helper', 'socket', 'attach', 'prop', 'weapon', 'gun', 'null', 'locator', 'marker', 'offset', 'dummy')) return 'control';
  if (has(t, 'twist', 'roll')) return 'twist';
  if (has(t, 'end', 'nub', 'tip', 'top') || /_end$|end$/i.test(raw)) return 'end';
  if (joined(t) === 'root' || joined(t) === 'rootjoint' || joined(t) === 'armature' || joined(t) === 'skeleton') return 'root';
  return null;
}

function roleOf(t: readonly string[], side: Side): Role {
  const j = joined(t);
  if (has(t, 'thumb', 'index', 'middle', 'ring', 'pinky', 'little', 'finger', 'fingers', 'digit', 'claw')) return 'finger';
  if (has(t, 'toe', 'toes') || j === 'ball' || j === 'toebase') return 'toe';
  if (has(t, 'tail')) return 'tail';
  if (has(t, 'head')) return 'head';
  if (has(t, 'neck')) return 'neck';
  if (has(t, 'clavicle', 'collar', 'collarbone', 'scapula') || (j === 'shoulder' && side !== null)) return 'clavicle';
  if (has(t, 'forearm', 'elbow', 'ulna', 'radius') || j.includes('lowerarm') || j.includes('forearm')) return 'forearm';
  if (has(t, 'upperarm', 'humerus') || j.includes('upperarm') || j === 'arm') return 'upperArm';
  if (has(t, 'hand', 'wrist', 'palm', 'paw')) return side ? 'hand' : 'other';
  if (has(t, 'thigh', 'femur', 'upleg') || j.includes('upperleg') || j === 'upleg' || (j === 'hip' && side !== null)) return 'thigh';
  if (has(t, 'calf', 'shin', 'knee', 'tibia', 'shank') || j.includes('lowerleg') || j === 'leg') return 'shin';
  if (has(t, 'foot', 'feet', 'ankle', 'heel', 'hoof')) return 'foot';
  // A leg or arm segment none of the rules above names (a spider's BackLeg2, a Fox's Leg01): a limb.
  if (has(t, 'leg', 'legs', 'arm', 'arms', 'limb')) return 'other';
  if (has(t, 'pelvis', 'hips', 'hip') || j === 'cog' || j === 'bodyroot') return 'pelvis';
  if (has(t, 'chest', 'thorax', 'ribcage', 'upperchest', 'torso')) return 'chest';
  if (has(t, 'spine', 'abdomen', 'back', 'waist', 'belly', 'body', 'trunk')) return 'spine';
  return 'other';
}

export function boneAnatomy(name: string): BoneAnatomy {
  const t = tokens(name);
  const side = sideOfName(name);
  return { name, tokens: t, side, role: roleOf(t, side), helper: helperOf(name, t) };
}

/**
 * Body-segment mass fractions of a human (Winter, "Biomechanics and Motor Control of Human Movement",
 * table 4.1, after Dempster): head + neck 8.1 %, trunk 49.7 % (thorax 21.6, abdomen 13.9, pelvis 14.2),
 * upper arm 2.8 %, forearm 1.6 %, hand 0.6 %, thigh 10.0 %, leg 4.65 %, foot 1.45 % (each side).
 * The trunk's share goes to pelvis, spine, chest and clavicle bodies; a group with several bodies splits
 * its fraction by their volumes.
 */
export const SEGMENT_FRACTION: Readonly<Record<string, number>> = {
  head: 0.081, trunk: 0.497, upperArm: 0.028, forearm: 0.016, hand: 0.006, thigh: 0.100, shin: 0.0465, foot: 0.0145,
};

/** The mass group of a role for a recognised biped (toes and fingers count with the foot and hand). */
export function segmentGroup(role: Role, side: Side): string | null {
  switch (role) {
    case 'head': case 'neck': return 'head';
    case 'pelvis': case 'spine': case 'chest': case 'clavicle': return 'trunk';
    case 'upperArm': case 'forearm': case 'hand': case 'thigh': case 'shin': case 'foot':
      return side ? `${role}.${side}` : null;
    case 'toe': return side ? `foot.${side}` : null;
    case 'finger': return side ? `hand.${side}` : null;
    default: return null;
  }
}

/** A biped whose limb segments are all named: both thighs, shins, upper arms and forearms. */
export function isRecognisedBiped(anatomy: readonly BoneAnatomy[]): boolean {
  const need: [Role, Side][] = [['thigh', 'left'], ['thigh', 'right'], ['shin', 'left'], ['shin', 'right'], ['upperArm', 'left'], ['upperArm', 'right'], ['forearm', 'left'], ['forearm', 'right']];
  return need.every(([role, side]) => anatomy.some((a) => a.role === role && a.side === side && a.helper === null));
}
