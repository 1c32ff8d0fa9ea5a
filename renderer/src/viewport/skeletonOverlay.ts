/**
 * The skeleton drawn over the mesh: a sphere at every joint and a tapered stick (octahedron, Blender's
 * bone shape) from each bone to each child. Built once per creature as plain three objects; every frame
 * `update()` follows the bones' world matrices (so it tracks animation and, later, simulated poses) and
 * recolours by selection and hover — no React involved.
 */
import {
  Color, Group, Mesh, MeshBasicMaterial, OctahedronGeometry, Quaternion, SphereGeometry, Vector3, type Object3D,
} from 'three';
import type { LoadedCreature } from '../creature/types';
import { BONE_BODY_COLOR, BONE_COLOR, BONE_EXCLUDED_COLOR, BONE_HOVER_COLOR, BONE_PLAN_BODY_COLOR, BONE_PLAN_MERGED_COLOR, BONE_SELECTED_COLOR } from './theme';
import type { BoneHighlight } from './boneHighlight';
import type { PlanPreview } from '../authoring/authoringStore';
import { SKELETON_GIZMOS } from './picking';

const UP = new Vector3(0, 1, 0);
const tmpA = new Vector3();
const tmpB = new Vector3();
const tmpQ = new Quaternion();
const colors = {
  normal: new Color(BONE_COLOR),
  hover: new Color(BONE_HOVER_COLOR),
  selected: new Color(BONE_SELECTED_COLOR),
  secondary: new Color(BONE_BODY_COLOR),
  excluded: new Color(BONE_EXCLUDED_COLOR),
  planBody: new Color(BONE_PLAN_BODY_COLOR),
  planMerged: new Color(BONE_PLAN_MERGED_COLOR),
};
/** The hovered bone's joint sphere grows by this while the Generate plan colours every bone. */
const PLAN_HOVER_SCALE = 1.8;

interface Part { mesh: Mesh; bone: number; child: number; material: MeshBasicMaterial }

export class SkeletonOverlay {
  readonly group = new Group();
  readonly parts: Part[] = [];
  private readonly objects: Object3D[];
  private readonly names: string[];
  private readonly jointRadius: number;
  private highlighted = new Set<string>();
  private secondary = new Set<string>();
  private plan: { body: string[]; merged: string[]; excluded: string[] } | null = null;
  private planSets: { source: PlanPreview; body: Set<string>; merged: Set<string>; excluded: Set<string> } | null = null;

  constructor(creature: LoadedCreature, size: number) {
    this.group.name = SKELETON_GIZMOS;
    this.objects = creature.display.boneObjects;
    this.names = creature.skeleton.bones.map((b) => b.name);
    // Gizmo size relative to the creature so a 10 cm lizard and a 2 m giant both read well.
    this.jointRadius = Math.max(size * 0.012, 0.004);
    const sphere = new SphereGeometry(1, 16, 12);
    // Octahedron stretched along +Y from 0 to 1, its waist at 20 % of the length.
    const stick = new OctahedronGeometry(1, 0);
    stick.scale(0.5, 0.5, 0.5);
    const pos = stick.attributes.position!;
    for (let i = 0; i < pos.count; i++) {
      const y = pos.getY(i);
      pos.setY(i, y > 0.01 ? 1 : y < -0.01 ? 0 : 0.2);
    }
    pos.needsUpdate = true;
    stick.computeVertexNormals();
    // UI colours, not lit scene content: exempt from the renderer's tone mapping (ACES would turn the
    // selection orange #ff8c00 into a dull brown), so the skeleton shows theme.ts's colours as they are.
    const material = () => new MeshBasicMaterial({ color: colors.normal, depthTest: false, depthWrite: false, transparent: true, opacity: 0.9, toneMapped: false });
    const children = this.names.map(() => [] as number[]);
    creature.skeleton.bones.forEach((b, i) => { if (b.parent >= 0) children[b.parent]!.push(i); });
    creature.skeleton.bones.forEach((b, i) => {
      const m = material();
      const joint = new Mesh(sphere, m);
      joint.userData.bone = b.name;
      joint.renderOrder = 1001;
      this.group.add(joint);
      this.parts.push({ mesh: joint, bone: i, child: -1, material: m });
      for (const c of children[i]!) {
        const sm = material();
        sm.opacity = 0.75;
        const s = new Mesh(stick, sm);
        s.userData.bone = b.name;
        s.renderOrder = 1000;
        this.group.add(s);
        this.parts.push({ mesh: s, bone: i, child: c, material: sm });
      }
    });
  }

  /**
   * `plan` (the Generate dialog's preview, while it is open) colours every bone at once — green where a
   * body will be made, violet where the bone merges into another's body, grey where it is excluded — with
   * the hovered bone (a row of the dialog) in the hover colour and its joint sphere enlarged; the
   * selection colours give way to it until the dialog closes.
   */
  update({ selected, secondary, hovered }: BoneHighlight, excluded: ReadonlySet<string>, plan: PlanPreview | null = null): void {
    this.highlighted.clear();
    this.secondary.clear();
    const sets = this.planSetsOf(plan);
    this.plan = sets ? { body: [], merged: [], excluded: [] } : null;
    for (const p of this.parts) {
      const a = this.objects[p.bone]!.getWorldPosition(tmpA);
      const name = this.names[p.bone]!;
      if (p.child < 0) {
        p.mesh.position.copy(a);
        p.mesh.scale.setScalar(this.jointRadius * (sets && name === hovered ? PLAN_HOVER_SCALE : 1));
      } else {
        const b = this.objects[p.child]!.getWorldPosition(tmpB);
        const len = a.distanceTo(b);
        p.mesh.position.copy(a);
        p.mesh.quaternion.copy(len > 1e-9 ? tmpQ.setFromUnitVectors(UP, b.sub(a).divideScalar(len)) : tmpQ.identity());
        const w = Math.min(len * 0.18, this.jointRadius * 2.2);
        p.mesh.scale.set(w, len, w);
      }
      if (sets) {
        const kind = sets.body.has(name) ? 'body' : sets.excluded.has(name) ? 'excluded' : sets.merged.has(name) ? 'merged' : null;
        p.material.color.copy(name === hovered ? colors.hover : kind === 'body' ? colors.planBody : kind === 'merged' ? colors.planMerged
          : kind === 'excluded' ? colors.excluded : colors.normal);
        if (kind && p.child < 0) this.plan![kind].push(name);
        continue;
      }
      const c = name === selected ? colors.selected : name === hovered ? colors.hover : name === secondary ? colors.secondary
        : excluded.has(name) ? colors.excluded : colors.normal;
      p.material.color.copy(c);
      if (name === selected) this.highlighted.add(name);
      else if (name === secondary && name !== hovered) this.secondary.add(name);
    }
  }

  private planSetsOf(plan: PlanPreview | null) {
    if (!plan) return (this.planSets = null);
    if (this.planSets?.source !== plan) {
      this.planSets = { source: plan, body: new Set(plan.bodies), merged: new Set(plan.merged), excluded: new Set(plan.excluded) };
    }
    return this.planSets;
  }

  /** The bones the Generate plan colours, by colour (null when no plan is shown). */
  planBones(): { body: string[]; merged: string[]; excluded: string[] } | null {
    return this.plan && { body: [...this.plan.body], merged: [...this.plan.merged], excluded: [...this.plan.excluded] };
  }

  /** Bones drawn in the selection colour (a bone selection). */
  highlightedBones(): string[] { return [...this.highlighted]; }
  /** Bones drawn in the secondary colour (the selected body's bone). */
  secondaryBones(): string[] { return [...this.secondary]; }

  dispose(): void {
    const geoms = new Set(this.parts.map((p) => p.mesh.geometry));
    geoms.forEach((g) => g.dispose());
    this.parts.forEach((p) => p.material.dispose());
  }
}
