/**
 * The creature's contents as a tree: the skeleton now; bodies and joints get their own sections when the
 * rig has them. Click selects (and the viewport highlights); hovering a row highlights the bone too.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useEditor } from '../state/store';
import { frameSelection, hover, select } from '../state/editor';
import type { SkeletonData } from '../creature/types';
import { Panel } from './Panel';
import { editorExtras } from '../../../shared/document';
import { RigSections } from '../authoring/OutlinerRig';
import { useSolver } from '../preview/solverState';
import { SceneSections } from './SceneOutliner';

interface Row { index: number; name: string; depth: number; hasChildren: boolean }

function treeRows(skeleton: SkeletonData, collapsed: ReadonlySet<string>, filter: string): Row[] {
  const children = skeleton.bones.map(() => [] as number[]);
  const roots: number[] = [];
  skeleton.bones.forEach((b, i) => (b.parent >= 0 ? children[b.parent]!.push(i) : roots.push(i)));
  const rows: Row[] = [];
  const f = filter.trim().toLowerCase();
  const walk = (i: number, depth: number) => {
    const b = skeleton.bones[i]!;
    if (!f || b.name.toLowerCase().includes(f)) rows.push({ index: i, name: b.name, depth: f ? 0 : depth, hasChildren: children[i]!.length > 0 });
    if (f || !collapsed.has(b.name)) for (const c of children[i]!) walk(c, depth + 1);
  };
  roots.forEach((r) => walk(r, 0));
  return rows;
}

export function Outliner() {
  const creature = useEditor((s) => s.creature);
  // A bone row is selected only by a bone selection: body "forearm" is not bone "forearm".
  const selected = useEditor((s) => (s.session.selection?.kind === 'bone' ? s.session.selection.name : null));
  const rig = useEditor((s) => s.document?.rig ?? null);
  const sceneOpen = useSolver((s) => s.scene !== null);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => (creature ? treeRows(creature.skeleton, collapsed, filter) : []), [creature, collapsed, filter]);
  const excluded = useMemo(() => new Set(rig ? editorExtras(rig).excludedBones : []), [rig]);

  useEffect(() => {
    // A bone picked in the viewport scrolls into view here.
    listRef.current?.querySelector('.outliner-row.selected')?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const toggle = (name: string) => setCollapsed((c) => { const n = new Set(c); if (n.has(name)) n.delete(name); else n.add(name); return n; });

  // A particle scene (an example) has no creature: its bones, particles and constraints instead.
  if (!creature && sceneOpen) {
    return (
      <Panel title="Outliner" testId="outliner">
        <input className="outliner-filter" placeholder="Filter…" value={filter} onChange={(e) => setFilter(e.target.value)} aria-label="Filter bones" />
        <SceneSections filter={filter} />
      </Panel>
    );
  }

  return (
    <Panel title="Outliner" testId="outliner">
      <input className="outliner-filter" placeholder="Filter bones…" value={filter} onChange={(e) => setFilter(e.target.value)} aria-label="Filter bones" />
      <div className="outliner-section">
        <div className="outliner-section-title">
          <span>Skeleton</span>
          <span className="count">{creature?.skeleton.bones.length ?? 0}</span>
        </div>
        <div className="outliner-list" ref={listRef} role="tree" onMouseLeave={() => hover(null)}>
          {rows.map((r) => (
            <div
              key={r.name}
              role="treeitem"
              aria-selected={r.name === selected}
              data-bone={r.name}
              className={`outliner-row${r.name === selected ? ' selected' : ''}${excluded.has(r.name) ? ' excluded' : ''}`}
              style={{ paddingLeft: 6 + r.depth * 14 }}
              onClick={() => select({ kind: 'bone', name: r.name })}
              onDoubleClick={() => { select({ kind: 'bone', name: r.name }); frameSelection(); }}
              onMouseEnter={() => hover({ kind: 'bone', name: r.name })}
              title={excluded.has(r.name) ? `${r.name} (excluded from the ragdoll)` : r.name}
            >
              <span
                className={`caret${r.hasChildren ? '' : ' leaf'}${collapsed.has(r.name) ? ' closed' : ''}`}
                onClick={(e) => { e.stopPropagation(); if (r.hasChildren) toggle(r.name); }}
              />
              <BoneIcon />
              <span className="outliner-name">{r.name}</span>
            </div>
          ))}
          {creature && rows.length === 0 && <div className="outliner-empty">No bone matches “{filter}”.</div>}
          {!creature && <div className="outliner-empty">No creature loaded.</div>}
        </div>
      </div>
      <RigSections />
    </Panel>
  );
}

function BoneIcon() {
  return (
    <svg className="bone-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden>
      <path d="M8 1.5 L11 6 L8 14.5 L5 6 Z" fill="currentColor" opacity="0.85" />
    </svg>
  );
}
