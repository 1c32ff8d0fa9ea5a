/**
 * The outliner's Bodies and Joints sections: click selects (viewport highlight + inspector), Ctrl/Shift-click
 * adds to the extra selection (two bodies → create a joint; many joints → presets, paste motor), double-click
 * renames in place. Under them, the stability check: jointed pairs more than 10× apart in mass or inertia,
 * and the rig checks for real creatures (RigWarnings: far from the bone, degenerate shapes, rest overlaps, scale).
 */
import { useMemo, useState } from 'react';
import { checkMassRatios, renameBody } from '../../../shared/authoring';
import type { RigDocument } from '../../../shared/rig';
import { frameSelection, notify, select } from '../state/editor';
import { useEditor } from '../state/store';
import { setAuthoring, useAuthoring } from './authoringStore';
import { createJointBetween, fixMassRatiosNow, jointCandidates, openGenerateDialog } from './actions';
import { rigEdit } from './rigEdit';
import { RigWarnings } from './RigWarnings';
import './authoring.css';

function renameJoint(rig: RigDocument, name: string, next: string) {
  const t = next.trim();
  if (t === '') return { ok: false as const, field: 'name', message: 'must be a non-empty name' };
  if (t === name) return { ok: true as const, rig };
  if (rig.joints.some((j) => j.name === t)) return { ok: false as const, field: 'name', message: `a joint named "${t}" already exists` };
  return {
    ok: true as const,
    rig: { ...rig, joints: rig.joints.map((j) => (j.name === name ? { ...j, name: t } : j)), controllers: rig.controllers.map((c) => ({ ...c, chain: c.chain.map((n) => (n === name ? t : n)) })) },
  };
}

function RenameInput({ value, onDone }: { value: string; onDone: (v: string | null) => void }) {
  const [text, setText] = useState(value);
  return (
    <input
      className="field rename-input"
      aria-label="New name"
      autoFocus
      value={text}
      onChange={(e) => setText(e.target.value)}
      onFocus={(e) => e.target.select()}
      onBlur={() => onDone(text)}
      onKeyDown={(e) => { e.stopPropagation(); if (e.key === 'Enter') onDone(text); if (e.key === 'Escape') onDone(null); }}
      onClick={(e) => e.stopPropagation()}
    />
  );
}

export function RigSections() {
  const rig = useEditor((s) => s.document?.rig ?? null);
  const sel = useEditor((s) => s.session.selection);
  const extraBodies = useAuthoring((s) => s.extraBodies);
  const extraJoints = useAuthoring((s) => s.extraJoints);
  const [renaming, setRenaming] = useState<{ kind: 'body' | 'joint'; name: string } | null>(null);
  const issues = useMemo(() => (rig ? checkMassRatios(rig) : []), [rig]);
  if (!rig) return null;
  const pair = jointCandidates();

  const click = (kind: 'body' | 'joint', name: string) => (e: React.MouseEvent) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey) {
      const key = kind === 'body' ? 'extraBodies' : 'extraJoints';
      const list = kind === 'body' ? extraBodies : extraJoints;
      setAuthoring({ [key]: list.includes(name) ? list.filter((n) => n !== name) : [...list, name] });
      if (!sel || (sel.kind !== kind && !(kind === 'body' && sel.kind === 'shape'))) select({ kind, name });
      return;
    }
    setAuthoring({ extraBodies: [], extraJoints: [] });
    select({ kind, name });
  };
  const finishRename = (v: string | null) => {
    const r = renaming;
    setRenaming(null);
    if (!r || v === null || v.trim() === r.name) return;
    const next = v.trim();
    const err = r.kind === 'body'
      ? rigEdit(`Rename ${r.name}`, (g) => renameBody(g, r.name, next))
      : rigEdit(`Rename ${r.name}`, (g) => renameJoint(g, r.name, next));
    if (err) notify('error', `Rename ${r.name}: ${err.message}`);
    else select({ kind: r.kind, name: next });
  };
  const isSel = (kind: 'body' | 'joint', name: string) =>
    (sel?.name === name && (sel.kind === kind || (kind === 'body' && sel.kind === 'shape'))) || (kind === 'body' ? extraBodies : extraJoints).includes(name);

  const row = (kind: 'body' | 'joint', name: string, detail: string, icon: React.ReactNode) => (
    <div
      key={name}
      role="treeitem"
      aria-selected={isSel(kind, name)}
      data-body={kind === 'body' ? name : undefined}
      data-joint={kind === 'joint' ? name : undefined}
      className={`outliner-row rig-row${isSel(kind, name) ? ' selected' : ''}`}
      onClick={click(kind, name)}
      onDoubleClick={() => setRenaming({ kind, name })}
      title={`${name} — double-click to rename, Ctrl-click to add to the selection`}
    >
      {icon}
      {renaming?.kind === kind && renaming.name === name
        ? <RenameInput value={name} onDone={finishRename} />
        : <span className="outliner-name">{name}</span>}
      <span className="rig-row-detail">{detail}</span>
    </div>
  );

  return (
    <>
      <div className="outliner-section" data-testid="outliner-bodies">
        <div className="outliner-section-title">
          <span>Bodies</span>
          <span className="section-tools">
            {pair && <button className="mini-button" title={`Create a joint between ${pair[0]} (parent) and ${pair[1]}`} onClick={() => createJointBetween('ball')}>+ Joint</button>}
            <span className="count">{rig.bodies.length}</span>
          </span>
        </div>
        <div className="outliner-list rig-list" role="tree" aria-label="Bodies">
          {rig.bodies.map((b) => row('body', b.name, b.shapes.length === 1 ? b.shapes[0]!.type : `${b.shapes.length} shapes`, <BodyIcon />))}
          {rig.bodies.length === 0 && (
            <div className="outliner-empty">
              No bodies yet. <button className="link" onClick={openGenerateDialog}>Generate from skeleton…</button>
            </div>
          )}
        </div>
      </div>
      <div className="outliner-section" data-testid="outliner-joints">
        <div className="outliner-section-title"><span>Joints</span><span className="count">{rig.joints.length}</span></div>
        <div className="outliner-list rig-list" role="tree" aria-label="Joints">
          {rig.joints.map((j) => row('joint', j.name, `${j.type} · ${j.bodyA}`, <JointIcon type={j.type} />))}
        </div>
      </div>
      {issues.length > 0 && (
        <div className="stability" data-testid="stability">
          <div className="stability-title">
            <span className="warn-icon">▲</span> {issues.length} mass-ratio warning{issues.length > 1 ? 's' : ''}
            <button className="mini-button" onClick={() => fixMassRatiosNow()} title="Raise each light body's mass to 1/10 of its heavy partner's (one undo step)">Fix</button>
          </div>
          {issues.map((i) => (
            <div key={i.joint} className="stability-item" onClick={() => { select({ kind: 'joint', name: i.joint }); frameSelection(); }}>
              <span className="num">{i.joint}</span>: {i.heavy} / {i.light}{' '}
              {i.massRatio > 10 && <span className="bad">mass {i.massRatio.toFixed(1)}×</span>}{' '}
              {i.inertiaRatio > 10 && <span className="bad">inertia {i.inertiaRatio.toFixed(0)}×</span>}
            </div>
          ))}
        </div>
      )}
      <RigWarnings />
    </>
  );
}

function BodyIcon() {
  return (
    <svg className="body-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden>
      <rect x="4.5" y="1.5" width="7" height="13" rx="3.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
    </svg>
  );
}

function JointIcon({ type }: { type: string }) {
  return (
    <svg className="joint-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden>
      {type === 'hinge'
        ? <path d="M3 13 L8 8 L13 13 M8 8 m-2.5 0 a2.5 2.5 0 1 0 5 0 a2.5 2.5 0 1 0 -5 0" fill="none" stroke="currentColor" strokeWidth="1.4" />
        : <><circle cx="8" cy="8" r="3" fill="currentColor" /><circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="1.2" strokeDasharray="2 2" /></>}
    </svg>
  );
}
