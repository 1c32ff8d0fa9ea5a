/**
 * An open particle scene (File › Examples › Ragdoll, Double Pendulum …) in the outliner and the inspector:
 * its bones, particles and constraints listed (click picks one: preview/sceneSelection.ts), and the
 * inspector showing the scene's settings, or what the pick is — a bone's ends, radius and length, a
 * particle's mass and where it is at the shown frame, a constraint's limits — with links between them.
 */
import type { ReactNode } from 'react';
import type { ParticleConstraint, ParticleScene } from '../../../shared/physics/particles';
import { useSolver } from '../preview/solverState';
import { pickInScene, useScenePick, type ScenePick } from '../preview/sceneSelection';
import { usePreview } from '../preview/previewStore';
import { previewClient } from '../preview/client';
import { particlePoser } from '../../../shared/preview/particlePose';

const DEG = 180 / Math.PI;
const fmt = (v: number, digits = 3) => (Math.abs(v) < 0.5 * 10 ** -digits ? 0 : v).toFixed(digits);
const deg = (rad: number) => `${fmt(rad * DEG, 1)}°`;
const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** A constraint in one line: its type and what it ties. */
export function constraintLabel(c: ParticleConstraint): string {
  switch (c.type) {
    case 'fixed': return `fixed ${c.particle}`;
    case 'length': case 'minDistance': return `${c.type} ${c.a} – ${c.b}`;
    default: return `${c.type} ${c.parent} → ${c.child}`;
  }
}

/** Bone names a constraint names (angle limits), particle names it names (pins, distances). */
function constraintRefs(c: ParticleConstraint): { bones: string[]; particles: string[] } {
  if (c.type === 'fixed') return { bones: [], particles: [c.particle] };
  if (c.type === 'length' || c.type === 'minDistance') return { bones: [], particles: [c.a, c.b] };
  return { bones: [c.parent, c.child], particles: [] };
}

const isPicked = (pick: ScenePick, kind: 'bone' | 'particle' | 'constraint', key: string | number) =>
  pick !== null && pick.kind === kind && (pick.kind === 'constraint' ? pick.index === key : pick.name === key);

/** The outliner's sections for the open scene (instead of a creature's skeleton). */
export function SceneSections({ filter }: { filter: string }) {
  const scene = useSolver((s) => s.scene);
  const pick = useScenePick((s) => s.pick);
  if (!scene) return null;
  const s = scene.scene;
  const f = filter.trim().toLowerCase();
  const match = (text: string) => !f || text.toLowerCase().includes(f);
  const row = (kind: 'bone' | 'particle' | 'constraint', key: string | number, label: string, detail: string, next: ScenePick) => (
    <div
      key={`${kind}:${key}`}
      role="treeitem"
      aria-selected={isPicked(pick, kind, key)}
      data-scene-kind={kind}
      data-scene-item={String(key)}
      className={`outliner-row rig-row${isPicked(pick, kind, key) ? ' selected' : ''}`}
      onClick={() => pickInScene(next)}
      title={label}
    >
      <span className="outliner-name">{label}</span>
      <span className="rig-row-detail">{detail}</span>
    </div>
  );
  const section = (title: string, testId: string, count: number, rows: ReactNode[]) => (
    <div className="outliner-section" data-testid={testId}>
      <div className="outliner-section-title"><span>{title}</span><span className="count">{count}</span></div>
      <div className="outliner-list rig-list" role="tree" aria-label={title}>
        {rows}
        {rows.length === 0 && <div className="outliner-empty">{count === 0 ? 'None.' : `No match for “${filter}”.`}</div>}
      </div>
    </div>
  );
  const pinned = new Set(s.constraints.flatMap((c) => (c.type === 'fixed' ? [c.particle] : [])));
  return (
    <>
      {section('Bones', 'scene-bones', s.bones.length, s.bones.filter((b) => match(b.name)).map((b) =>
        row('bone', b.name, b.name, `${b.head} → ${b.tip}`, { kind: 'bone', name: b.name })))}
      {section('Particles', 'scene-particles', s.particles.length, s.particles.filter((p) => match(p.name)).map((p) =>
        row('particle', p.name, p.name, `${fmt(p.mass, 2)} kg${pinned.has(p.name) ? ' · pinned' : ''}`, { kind: 'particle', name: p.name })))}
      {section('Constraints', 'scene-constraints', s.constraints.length, s.constraints.flatMap((c, i) =>
        (match(constraintLabel(c)) ? [row('constraint', i, constraintLabel(c), '', { kind: 'constraint', index: i })] : [])))}
    </>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="prop-row">
      <span className="prop-label">{label}</span>
      <span className="prop-value">{children}</span>
    </div>
  );
}

function Vec({ label, value, unit }: { label: string; value: readonly number[]; unit: string }) {
  return (
    <div className="prop-row">
      <span className="prop-label">{label}</span>
      <span className="vec">{value.map((v, i) => <span key={i} className={`num axis-${'xyz'[i]}`}>{fmt(v)}</span>)}</span>
      <span className="unit">{unit}</span>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="inspector-section">
      <div className="inspector-section-title">{title}</div>
      {children}
    </div>
  );
}

const link = (label: string, next: ScenePick) => <button key={label} className="link" onClick={() => pickInScene(next)}>{label}</button>;
const links = (items: ReactNode[]) => (items.length ? items : <span className="muted">none</span>);

/** The inspector for the open scene: the pick, or with nothing picked the scene itself. */
export function SceneInspector() {
  const scene = useSolver((s) => s.scene);
  const pick = useScenePick((s) => s.pick);
  // Re-read the shown frame's positions when the playhead moves (published at UI rate).
  usePreview((s) => s.playhead);
  if (!scene) return null;
  const s = scene.scene;
  if (pick?.kind === 'bone') {
    const b = s.bones.find((x) => x.name === pick.name);
    if (b) return <BoneView scene={s} bone={b} />;
  } else if (pick?.kind === 'particle') {
    const p = s.particles.find((x) => x.name === pick.name);
    if (p) return <ParticleView scene={s} particle={p} />;
  } else if (pick?.kind === 'constraint' && s.constraints[pick.index]) {
    return <ConstraintView constraint={s.constraints[pick.index]!} index={pick.index} />;
  }
  const mass = s.particles.reduce((a, p) => a + p.mass, 0);
  const st = s.settings;
  return (
    <div data-testid="scene-inspector">
      <div className="inspector-heading"><span className="badge project">Scene</span><span className="inspector-name">{s.name}</span></div>
      {s.description && <div className="inspector-tip">{s.description}</div>}
      <Section title="Contents">
        <Row label="File">{scene.name}</Row>
        <Row label="Bones"><span className="num">{s.bones.length}</span></Row>
        <Row label="Particles"><span className="num">{s.particles.length}</span> <span className="muted">({fmt(mass, 2)} kg)</span></Row>
        <Row label="Constraints"><span className="num">{s.constraints.length}</span></Row>
        <Row label="Scheduled clicks"><span className="num">{s.impulses.length}</span></Row>
      </Section>
      <Section title="Settings">
        <Row label="Step"><span className="num">{fmt(st.dt * 1000, 2)}</span> <span className="unit">ms</span></Row>
        <Row label="Iterations"><span className="num">{st.iterations}</span></Row>
        <Vec label="Gravity" value={st.gravity} unit="m/s²" />
        <Row label="Damping"><span className="num">{fmt(st.damping)}</span> <span className="unit">1/s</span></Row>
        <Row label="Friction"><span className="num">{fmt(st.friction, 2)}</span></Row>
        <Row label="Floor">{st.floor ? <><span className="num">y = {fmt(st.floor.height)}</span> <span className="unit">m, μ {fmt(st.floor.friction, 2)}</span></> : <span className="muted">none</span>}</Row>
        <Row label="Duration"><span className="num">{fmt(st.duration, 1)}</span> <span className="unit">s</span></Row>
      </Section>
      <div className="inspector-tip">Pick a bone, particle or constraint in the outliner to inspect it; click a bone in the viewport to push it.</div>
    </div>
  );
}

/** Where a particle is at the frame on screen (m), or null before the scene's frames arrive. */
function shownPosition(name: string): number[] | null {
  const client = previewClient();
  const poser = particlePoser(client.layout);
  const frame = client.frame(client.frameIndex());
  const i = poser ? poser.info.particleNames.indexOf(name) : -1;
  if (!poser || !frame || i < 0) return null;
  const x = poser.positions(frame);
  return [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!];
}

function constraintsNaming(scene: ParticleScene, test: (refs: { bones: string[]; particles: string[] }) => boolean): ReactNode[] {
  return scene.constraints.flatMap((c, i) => (test(constraintRefs(c)) ? [link(constraintLabel(c), { kind: 'constraint', index: i })] : []));
}

function BoneView({ scene, bone }: { scene: ParticleScene; bone: ParticleScene['bones'][number] }) {
  const pos = new Map(scene.particles.map((p) => [p.name, p.position]));
  const head = pos.get(bone.head)!, tip = pos.get(bone.tip)!;
  const particle = (n: string) => link(n, { kind: 'particle', name: n });
  return (
    <div data-testid="scene-bone-inspector">
      <div className="inspector-heading"><span className="badge">Bone</span><span className="inspector-name">{bone.name}</span></div>
      <Section title="Capsule">
        <Row label="Head">{particle(bone.head)}</Row>
        <Row label="Tip">{particle(bone.tip)}</Row>
        <Row label="Length"><span className="num">{fmt(dist(head, tip))}</span> <span className="unit">m</span></Row>
        <Row label="Radius"><span className="num">{fmt(bone.radius)}</span> <span className="unit">m</span></Row>
        <Row label="Frame">{bone.frame ? particle(bone.frame) : <span className="muted">none (no twist)</span>}</Row>
        <Row label="Attached">{links(bone.attached.map(particle))}</Row>
        <Row label="Collides">{bone.collide ? 'yes' : 'no'}</Row>
      </Section>
      <Section title="Constraints">{links(constraintsNaming(scene, (r) => r.bones.includes(bone.name)))}</Section>
    </div>
  );
}

function ParticleView({ scene, particle }: { scene: ParticleScene; particle: ParticleScene['particles'][number] }) {
  const now = shownPosition(particle.name);
  const bone = (n: string) => link(n, { kind: 'bone', name: n });
  const roles = scene.bones.flatMap((b) => {
    const r = b.head === particle.name ? 'head' : b.tip === particle.name ? 'tip' : b.frame === particle.name ? 'frame' : b.attached.includes(particle.name) ? 'attached' : null;
    return r ? [<span key={b.name}>{bone(b.name)} <span className="muted">({r})</span> </span>] : [];
  });
  const pinned = scene.constraints.some((c) => c.type === 'fixed' && c.particle === particle.name);
  return (
    <div data-testid="scene-particle-inspector">
      <div className="inspector-heading"><span className="badge">Particle</span><span className="inspector-name">{particle.name}</span></div>
      <Section title="Particle">
        <Row label="Mass"><span className="num">{fmt(particle.mass, 3)}</span> <span className="unit">kg</span>{pinned && <span className="muted"> · pinned</span>}</Row>
        <Vec label="Start" value={particle.position} unit="m" />
        {now && <Vec label="Shown" value={now} unit="m" />}
      </Section>
      <Section title="Bones">{links(roles)}</Section>
      <Section title="Constraints">{links(constraintsNaming(scene, (r) => r.particles.includes(particle.name)))}</Section>
    </div>
  );
}

function ConstraintView({ constraint: c, index }: { constraint: ParticleConstraint; index: number }) {
  const bone = (n: string) => link(n, { kind: 'bone', name: n });
  const particle = (n: string) => link(n, { kind: 'particle', name: n });
  let rows: ReactNode;
  switch (c.type) {
    case 'fixed': rows = <Row label="Particle">{particle(c.particle)}</Row>; break;
    case 'length': rows = <><Row label="Between">{particle(c.a)} {particle(c.b)}</Row><Row label="Length">{c.length === null ? <span className="muted">initial distance</span> : <><span className="num">{fmt(c.length)}</span> <span className="unit">m</span></>}</Row></>; break;
    case 'minDistance': rows = <><Row label="Between">{particle(c.a)} {particle(c.b)}</Row><Row label="At least"><span className="num">{fmt(c.distance)}</span> <span className="unit">m</span></Row></>; break;
    case 'swing': rows = <><Row label="Parent">{bone(c.parent)}</Row><Row label="Child">{bone(c.child)}</Row><Row label="Cone"><span className="num">{deg(c.max)}</span></Row></>; break;
    case 'twist': rows = <><Row label="Parent">{bone(c.parent)}</Row><Row label="Child">{bone(c.child)}</Row><Row label="Range"><span className="num">{deg(c.min)} … {deg(c.max)}</span></Row></>; break;
    case 'angle': rows = <><Row label="Parent">{bone(c.parent)}</Row><Row label="Child">{bone(c.child)}</Row><Row label="Range"><span className="num">{deg(c.min)} … {deg(c.max)}</span></Row><Row label="Rule">{c.rule}</Row><Row label="Measured from">{c.from}</Row></>; break;
    case 'hinge': rows = <><Row label="Parent">{bone(c.parent)}</Row><Row label="Child">{bone(c.child)}</Row><Row label="Range"><span className="num">{deg(c.min)} … {deg(c.max)}</span></Row><Vec label="Axis" value={c.axis} unit={c.axisSpace} /><Row label="Planar">{c.planar ? 'yes' : 'no'}</Row><Row label="Measured from">{c.from}</Row></>; break;
  }
  return (
    <div data-testid="scene-constraint-inspector">
      <div className="inspector-heading"><span className="badge">Constraint</span><span className="inspector-name">{c.type} #{index + 1}</span></div>
      <Section title={constraintLabel(c)}>{rows}</Section>
    </div>
  );
}
