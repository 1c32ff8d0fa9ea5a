/**
 * A rigid body's properties: bone, shapes (list, add/remove, pose and size of the selected one — the same
 * numbers the viewport gizmo edits), mass by density or total with the computed mass, centroid and
 * inertia shown live, material, collision filter with the creature-wide matrix, mirror to the other side.
 */
import { useMemo, useState } from 'react';
import { Euler, Quaternion } from 'three';
import {
  addShape, assignBodyToBone, removeShape, setDensity, setMass, setMaterial, setShapeParams, sideOf,
} from '../../../shared/authoring';
import { computeMassProperties } from '../../../shared/physics/massProperties';
import type { ShapeDesc } from '../../../shared/physics/types';
import type { RigBody, RigShape } from '../../../shared/rig';
import { select } from '../state/editor';
import { useEditor } from '../state/store';
import { deleteSelection, mirrorBody } from './actions';
import { CollisionFilter } from './CollisionMatrix';
import { setAuthoring, useAuthoring } from './authoringStore';
import { FieldRow, NumberField, formatNumber } from './NumberField';
import { rigEdit, type FieldError } from './rigEdit';
import { Section } from './Section';
import './authoring.css';

const DEG = 180 / Math.PI;
const NO_BONES: never[] = [];

const NEW_SHAPE: Record<RigShape['type'], RigShape> = {
  sphere: { type: 'sphere', position: [0, 0.05, 0], rotation: [0, 0, 0, 1], radius: 0.05, hollow: false },
  capsule: { type: 'capsule', position: [0, 0.1, 0], rotation: [0, 0, 0, 1], radius: 0.04, halfHeight: 0.06, axis: 'y' },
  box: { type: 'box', position: [0, 0.05, 0], rotation: [0, 0, 0, 1], halfExtents: [0.04, 0.05, 0.04] },
  cylinder: { type: 'cylinder', position: [0, 0.1, 0], rotation: [0, 0, 0, 1], radius: 0.04, halfHeight: 0.06, axis: 'y', hollow: false },
  ellipsoid: { type: 'ellipsoid', position: [0, 0.05, 0], rotation: [0, 0, 0, 1], radii: [0.04, 0.06, 0.04] },
};

export function massPropertiesOf(body: RigBody): { mass: number; centroid: number[]; inertia: number[] } | { error: string } {
  try {
    return computeMassProperties(body.shapes as readonly ShapeDesc[], body.mass !== null ? { mass: body.mass } : { density: body.density ?? 1000 });
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export function BodyInspector({ name, shapeIndex }: { name: string; shapeIndex: number | null }) {
  const body = useEditor((s) => s.document?.rig.bodies.find((b) => b.name === name) ?? null);
  const rig = useEditor((s) => s.document?.rig ?? null);
  const bones = rig?.skeleton.bones ?? NO_BONES;
  const taken = useMemo(() => new Map(rig?.bodies.map((b) => [b.bone, b.name]) ?? []), [rig]);
  const gizmoMode = useAuthoring((s) => s.gizmoMode);
  const [newType, setNewType] = useState<RigShape['type']>('capsule');
  const [boneError, setBoneError] = useState<string | null>(null);
  const mp = useMemo(() => (body ? massPropertiesOf(body) : null), [body]);
  if (!body) return <div className="inspector-empty">Body “{name}” is not in the rig.</div>;
  const index = shapeIndex !== null && shapeIndex < body.shapes.length ? shapeIndex : 0;
  const shape = body.shapes[index]!;
  const edit = (label: string, f: Parameters<typeof rigEdit>[1]) => rigEdit(`${label} (${name})`, f);
  const side = sideOf(name);

  return (
    <div data-testid="body-inspector">
      <div className="inspector-heading">
        <span className="badge body">Body</span><span className="inspector-name">{body.name}</span>
        <span className="heading-tools"><button className="mini-button danger" title="Remove this body and its joints (Delete)" onClick={deleteSelection}>Remove</button></span>
      </div>
      <Section title="Bone">
        <FieldRow label="Drives bone">
          <select
            className="field"
            aria-label="Bone"
            value={body.bone}
            onChange={(e) => {
              const r = edit(`Assign to ${e.target.value}`, (rig) => assignBodyToBone(rig, name, e.target.value));
              setBoneError(r ? r.message : null);
            }}
          >
            {bones.map((b) => (
              <option key={b.name} value={b.name} disabled={taken.has(b.name) && taken.get(b.name) !== name}>
                {b.name}{taken.has(b.name) && taken.get(b.name) !== name ? ` (${taken.get(b.name)})` : ''}
              </option>
            ))}
          </select>
        </FieldRow>
        {boneError && <div className="field-error block" role="alert">Bone: {boneError}</div>}
        <FieldRow label="Symmetry">
          <button className="mini-button" disabled={!side} title={side ? `Copy every ${side} body and joint onto the ${side === 'left' ? 'right' : 'left'} side (one undo step)` : 'No side in the name'} onClick={() => mirrorBody(name)}>
            Mirror {side ?? ''} → {side === 'left' ? 'right' : side === 'right' ? 'left' : 'other side'}
          </button>
        </FieldRow>
      </Section>

      <Section
        title={`Shapes (${body.shapes.length})`}
        tools={(
          <>
            <select className="field compact" aria-label="New shape type" value={newType} onChange={(e) => setNewType(e.target.value as RigShape['type'])}>
              {Object.keys(NEW_SHAPE).map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
            <button className="mini-button" onClick={() => { if (!edit(`Add ${newType}`, (rig) => addShape(rig, name, NEW_SHAPE[newType]))) select({ kind: 'shape', name, index: body.shapes.length }); }}>+ Add</button>
          </>
        )}
      >
        <div className="shape-list" role="listbox" aria-label="Shapes">
          {body.shapes.map((s, i) => (
            <div key={i} role="option" aria-selected={i === index} className={`shape-item${i === index ? ' selected' : ''}`} onClick={() => select({ kind: 'shape', name, index: i })}>
              <span className="shape-type">{s.type}</span>
              <span className="muted num">{shapeSummary(s)}</span>
              <button
                className="icon-button"
                title={body.shapes.length === 1 ? 'A body needs at least one shape' : 'Remove this shape'}
                aria-label={`Remove shape ${i + 1}`}
                disabled={body.shapes.length === 1}
                onClick={(e) => { e.stopPropagation(); if (!edit('Remove shape', (rig) => removeShape(rig, name, i))) select({ kind: 'body', name }); }}
              >×</button>
            </div>
          ))}
        </div>
        <div className="gizmo-modes" role="group" aria-label="Gizmo">
          {(['translate', 'rotate', 'scale'] as const).map((m, k) => (
            <button key={m} className={`mini-button${gizmoMode === m ? ' on' : ''}`} aria-pressed={gizmoMode === m} onClick={() => { setAuthoring({ gizmoMode: m }); select({ kind: 'shape', name, index }); }}>
              {['Move', 'Rotate', 'Scale'][k]} <kbd>{'WER'[k]}</kbd>
            </button>
          ))}
        </div>
        <ShapeFields body={name} index={index} shape={shape} />
      </Section>

      <Section title="Mass">
        <FieldRow label="Defined by">
          <span className="segmented" role="radiogroup" aria-label="Mass defined by">
            <button role="radio" aria-checked={body.mass === null} className={body.mass === null ? 'on' : ''}
              onClick={() => { if (body.mass !== null && mp && 'mass' in mp) edit('Use density', (rig) => setDensity(rig, name, mp.mass / Math.max(volumeOf(body), 1e-12))); }}>Density</button>
            <button role="radio" aria-checked={body.mass !== null} className={body.mass !== null ? 'on' : ''}
              onClick={() => { if (body.mass === null && mp && 'mass' in mp) edit('Use mass', (rig) => setMass(rig, name, Number(mp.mass.toFixed(4)))); }}>Mass</button>
          </span>
        </FieldRow>
        {body.mass === null
          ? <FieldRow label="Density"><NumberField label="Density" name="density" value={body.density} unit="kg/m³" digits={1} onCommit={(v) => edit('Density', (rig) => setDensity(rig, name, v))} /></FieldRow>
          : <FieldRow label="Mass"><NumberField label="Mass" name="mass" value={body.mass} unit="kg" onCommit={(v) => edit('Mass', (rig) => setMass(rig, name, v))} /></FieldRow>}
        {mp && 'error' in mp && <div className="field-error block">{mp.error}</div>}
        {mp && 'mass' in mp && (
          <div className="computed" data-testid="computed-mass">
            <div className="computed-row"><span className="prop-label">Mass</span><span className="num">{formatNumber(mp.mass, 3)}</span><span className="unit">kg</span></div>
            <div className="computed-row"><span className="prop-label">Centroid</span><span className="vec">{mp.centroid.map((c, i) => <span key={i} className={`num axis-${'xyz'[i]}`}>{formatNumber(c, 3)}</span>)}</span><span className="unit">m</span></div>
            <div className="computed-row"><span className="prop-label">Inertia</span><span className="vec">{[0, 4, 8].map((k, i) => <span key={i} className={`num axis-${'xyz'[i]}`}>{mp.inertia[k]!.toExponential(2)}</span>)}</span><span className="unit">kg·m²</span></div>
          </div>
        )}
      </Section>

      <Section title="Material">
        <FieldRow label="Friction μ"><NumberField label="Friction" name="friction" value={body.material.friction} onCommit={(v) => edit('Friction', (rig) => setMaterial(rig, name, { friction: v }))} /></FieldRow>
        <FieldRow label="Restitution"><NumberField label="Restitution" name="restitution" value={body.material.restitution} onCommit={(v) => edit('Restitution', (rig) => setMaterial(rig, name, { restitution: v }))} /></FieldRow>
      </Section>

      <CollisionFilter body={body} />
    </div>
  );
}

const volumeOf = (b: RigBody): number => {
  const mp = computeMassProperties(b.shapes as readonly ShapeDesc[], { density: 1 });
  return mp.mass;
};

function shapeSummary(s: RigShape): string {
  const cm = (v: number) => `${formatNumber(v * 100, 1)}`;
  switch (s.type) {
    case 'sphere': return `r ${cm(s.radius)} cm`;
    case 'capsule': case 'cylinder': return `r ${cm(s.radius)} · h ${cm(2 * s.halfHeight)} cm`;
    case 'box': return `${s.halfExtents.map((h) => cm(2 * h)).join('×')} cm`;
    case 'ellipsoid': return `${s.radii.map(cm).join('×')} cm`;
  }
}

function ShapeFields({ body, index, shape }: { body: string; index: number; shape: RigShape }) {
  const set = (label: string, patch: Record<string, unknown>): FieldError | null => rigEdit(`${label} (${body})`, (rig) => setShapeParams(rig, body, index, patch));
  const euler = new Euler().setFromQuaternion(new Quaternion(...shape.rotation), 'XYZ');
  const eul = [euler.x, euler.y, euler.z];
  const setPos = (k: number) => (v: number) => set('Move shape', { position: shape.position.map((p, i) => (i === k ? v : p)) });
  const setRot = (k: number) => (v: number) => {
    const e = eul.map((a, i) => (i === k ? v : a));
    const q = new Quaternion().setFromEuler(new Euler(e[0], e[1], e[2], 'XYZ'));
    return set('Rotate shape', { rotation: [q.x, q.y, q.z, q.w].map((c) => Number(c.toFixed(6))) });
  };
  const vec3Fields = (label: string, values: readonly number[], on: (k: number) => (v: number) => FieldError | null, unit: string, scale = 1, digits = 3) => (
    <FieldRow label={label}>
      <span className="vec-fields">
        {values.map((v, k) => <NumberField key={k} label={`${label} ${'XYZ'[k]}`} value={v} scale={scale} digits={digits} onCommit={on(k)} />)}
      </span>
      <span className="unit">{unit}</span>
    </FieldRow>
  );
  return (
    <div className="shape-fields" data-testid="shape-fields">
      {vec3Fields('Position', shape.position, setPos, 'm')}
      {vec3Fields('Rotation', eul, setRot, '°', DEG, 1)}
      {(shape.type === 'sphere' || shape.type === 'capsule' || shape.type === 'cylinder') && (
        <FieldRow label="Radius"><NumberField label="Radius" name="radius" value={shape.radius} unit="m" onCommit={(v) => set('Radius', { radius: v })} /></FieldRow>
      )}
      {(shape.type === 'capsule' || shape.type === 'cylinder') && (
        <>
          <FieldRow label="Half height"><NumberField label="Half height" name="halfHeight" value={shape.halfHeight} unit="m" onCommit={(v) => set('Half height', { halfHeight: v })} /></FieldRow>
          <FieldRow label="Axis">
            <select className="field" aria-label="Axis" value={shape.axis} onChange={(e) => set('Axis', { axis: e.target.value })}>
              <option value="x">X</option><option value="y">Y</option><option value="z">Z</option>
            </select>
          </FieldRow>
        </>
      )}
      {shape.type === 'box' && vec3Fields('Half extents', shape.halfExtents, (k) => (v) => set('Box size', { halfExtents: shape.halfExtents.map((h, i) => (i === k ? v : h)) }), 'm')}
      {shape.type === 'ellipsoid' && vec3Fields('Radii', shape.radii, (k) => (v) => set('Radii', { radii: shape.radii.map((h, i) => (i === k ? v : h)) }), 'm')}
    </div>
  );
}
