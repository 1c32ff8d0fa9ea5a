/**
 * Collision filtering as artists think of it. The format's rule: bodies a and b collide iff
 * (a.group & b.mask) ≠ 0 and (b.group & a.mask) ≠ 0. Per body: which groups it is in and which groups it
 * collides with (bits 0..7 shown as groups 1..8). Creature-wide: a groups × groups matrix whose cell (i, j)
 * is on when every body in group i has bit j in its mask and every body in group j has bit i — toggling
 * it sets or clears those bits on all of them (one undo step).
 */
import { setCollisionFilter } from '../../../shared/authoring';
import type { RigBody, RigDocument } from '../../../shared/rig';
import { useEditor } from '../state/store';
import { Section } from './Section';
import { FieldRow } from './NumberField';
import { chain, rigEdit } from './rigEdit';
import { useState } from 'react';

export const GROUPS = 8;
const bit = (k: number) => (2 ** k) >>> 0;
const has = (bits: number, k: number) => ((bits >>> k) & 1) === 1;
const withBit = (bits: number, k: number, on: boolean) => (on ? (bits | bit(k)) >>> 0 : (bits & ~bit(k)) >>> 0);

export type CellState = 'on' | 'off' | 'mixed' | 'empty';

/** The matrix cell for groups i and j over all bodies of the rig. */
export function matrixCell(bodies: readonly RigBody[], i: number, j: number): CellState {
  let yes = 0, no = 0;
  for (const b of bodies) {
    if (has(b.collisionGroup, i)) { if (has(b.collisionMask, j)) yes++; else no++; }
    if (has(b.collisionGroup, j)) { if (has(b.collisionMask, i)) yes++; else no++; }
  }
  if (yes + no === 0) return 'empty';
  return no === 0 ? 'on' : yes === 0 ? 'off' : 'mixed';
}

/** Sets cell (i, j) on or off for every body in group i or j. */
export function setMatrixCell(rig: RigDocument, i: number, j: number, on: boolean) {
  const steps = rig.bodies.flatMap((b) => {
    let mask = b.collisionMask;
    if (has(b.collisionGroup, i)) mask = withBit(mask, j, on);
    if (has(b.collisionGroup, j)) mask = withBit(mask, i, on);
    return mask === b.collisionMask ? [] : [(r: RigDocument) => setCollisionFilter(r, b.name, { mask })];
  });
  return chain(...steps)(rig);
}

export function CollisionFilter({ body }: { body: RigBody }) {
  const bodies = useEditor((s) => s.document?.rig.bodies) ?? [body];
  const [error, setError] = useState<string | null>(null);
  const toggle = (field: 'group' | 'mask', k: number) => {
    const cur = field === 'group' ? body.collisionGroup : body.collisionMask;
    const r = rigEdit(`Collision ${field} (${body.name})`, (rig) => setCollisionFilter(rig, body.name, { [field]: withBit(cur, k, !has(cur, k)) }));
    setError(r ? r.message : null);
  };
  const bits = (field: 'group' | 'mask', value: number) => (
    <span className="bit-row" role="group" aria-label={field === 'group' ? 'Collision groups' : 'Collides with groups'}>
      {Array.from({ length: GROUPS }, (_, k) => (
        <label key={k} className={`bit${has(value, k) ? ' on' : ''}`} title={`Group ${k + 1}`}>
          <input type="checkbox" aria-label={`${field === 'group' ? 'In group' : 'Collides with group'} ${k + 1}`} checked={has(value, k)} onChange={() => toggle(field, k)} />
          {k + 1}
        </label>
      ))}
    </span>
  );
  return (
    <Section title="Collision">
      <FieldRow label="In groups">{bits('group', body.collisionGroup)}</FieldRow>
      <FieldRow label="Collides with">{bits('mask', body.collisionMask)}</FieldRow>
      {error && <div className="field-error block" role="alert">{error}</div>}
      <div className="matrix-caption hint">Group matrix (all bodies): a tick lets the two groups collide.</div>
      <CollisionMatrix bodies={bodies} />
    </Section>
  );
}

export function CollisionMatrix({ bodies }: { bodies: readonly RigBody[] }) {
  const used = (k: number) => bodies.some((b) => has(b.collisionGroup, k));
  return (
    <table className="collision-matrix" data-testid="collision-matrix">
      <thead>
        <tr><th />{Array.from({ length: GROUPS }, (_, j) => <th key={j} className={used(j) ? 'used' : ''}>{j + 1}</th>)}</tr>
      </thead>
      <tbody>
        {Array.from({ length: GROUPS }, (_, i) => (
          <tr key={i}>
            <th className={used(i) ? 'used' : ''}>{i + 1}</th>
            {Array.from({ length: GROUPS }, (_, j) => {
              if (j < i) return <td key={j} className="mirror" />;
              const state = matrixCell(bodies, i, j);
              return (
                <td key={j} className={`cell ${state}`}>
                  <input
                    type="checkbox"
                    aria-label={`Groups ${i + 1} and ${j + 1} collide`}
                    checked={state === 'on'}
                    ref={(el) => { if (el) el.indeterminate = state === 'mixed'; }}
                    disabled={state === 'empty'}
                    onChange={() => rigEdit(`Collision matrix ${i + 1}×${j + 1}`, (rig) => setMatrixCell(rig, i, j, state !== 'on'))}
                  />
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
