/**
 * Properties of the selection: a bone's rest transform and rig settings, or, with nothing selected, the
 * project. Read-only numbers come from the skeleton data; editable fields go through document commands
 * (one undo step each; text fields commit on Enter or blur).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Euler, Quaternion, Vector3 } from 'three';
import { boneNote, editorExtras, isBoneIncluded } from '../../../shared/document';
import { useEditor } from '../state/store';
import { editor, select, told } from '../state/editor';
import { ControllerInspector } from '../preview/ControllerInspector';
import { usePreview } from '../preview/previewStore';
import { Panel } from './Panel';
import { BodyInspector } from '../authoring/BodyInspector';
import { JointInspector } from '../authoring/JointInspector';
import { useSolver } from '../preview/solverState';
import { SceneInspector } from './SceneOutliner';

const DEG = 180 / Math.PI;
const fmt = (v: number, digits = 3) => (Math.abs(v) < 0.5 * 10 ** -digits ? 0 : v).toFixed(digits);

function Vec({ label, value, unit, digits }: { label: string; value: readonly number[]; unit: string; digits?: number }) {
  return (
    <div className="prop-row">
      <span className="prop-label">{label}</span>
      <span className="vec">
        {value.map((v, i) => (
          <span key={i} className={`num axis-${'xyz'[i]}`}>{fmt(v, digits)}</span>
        ))}
      </span>
      <span className="unit">{unit}</span>
    </div>
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

/** A text field that edits the document once, when the user is done typing (Enter or blur); Escape reverts
 *  to the document's value without committing (its blur would otherwise commit the text being reverted). */
function CommitField({ value, onCommit, label, multiline }: { value: string; onCommit: (v: string) => boolean; label: string; multiline?: boolean }) {
  const [text, setText] = useState(value);
  const reverting = useRef(false);
  useEffect(() => setText(value), [value]);
  const commit = () => {
    if (reverting.current) { reverting.current = false; return; }
    if (text !== value && !onCommit(text)) setText(value);
  };
  const common = {
    'aria-label': label,
    value: text,
    onChange: (e: { target: { value: string } }) => setText(e.target.value),
    onFocus: () => { reverting.current = false; },
    onBlur: commit,
    onKeyDown: (e: React.KeyboardEvent) => {
      if (e.key === 'Escape') { reverting.current = true; setText(value); (e.target as HTMLElement).blur(); }
      if (e.key === 'Enter' && (!multiline || e.ctrlKey || e.metaKey)) (e.target as HTMLElement).blur();
    },
  };
  return multiline ? <textarea className="field" rows={3} {...common} /> : <input className="field" {...common} />;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="inspector-section">
      <div className="inspector-section-title">{title}</div>
      {children}
    </div>
  );
}

export function Inspector() {
  const selection = useEditor((s) => s.session.selection);
  const pathPoint = usePreview((s) => s.selectedPoint);
  const sceneOpen = useSolver((s) => s.scene !== null);
  const noDocument = useEditor((s) => s.document === null);
  if (sceneOpen && noDocument) return <Panel title="Inspector" testId="inspector"><SceneInspector /></Panel>;
  const body = selection?.kind === 'body' || selection?.kind === 'shape'
    ? <BodyInspector key={selection.name} name={selection.name} shapeIndex={selection.kind === 'shape' ? selection.index : null} />
    : null;
  return (
    <Panel title="Inspector" testId="inspector">
      {selection?.kind === 'bone' ? <BoneInspector name={selection.name} />
        : body ?? (selection?.kind === 'joint' ? <JointInspector key={selection.name} name={selection.name} />
          : pathPoint ? <ControllerInspector name={pathPoint.controller} /> : <ProjectInspector />)}
    </Panel>
  );
}

function BoneInspector({ name }: { name: string }) {
  const creature = useEditor((s) => s.creature);
  const included = useEditor((s) => (s.document ? isBoneIncluded(s.document.rig, name) : true));
  const note = useEditor((s) => (s.document ? boneNote(s.document.rig, name) : ''));
  const index = creature ? creature.skeleton.bones.findIndex((b) => b.name === name) : -1;
  if (!creature || index < 0) return <div className="inspector-empty">Bone “{name}” is not in this creature.</div>;
  const bone = creature.skeleton.bones[index]!;
  const parent = bone.parent >= 0 ? creature.skeleton.bones[bone.parent]!.name : null;
  const children = creature.skeleton.bones.filter((b) => b.parent === index).map((b) => b.name);
  const euler = new Euler().setFromQuaternion(new Quaternion(...bone.rotation), 'XYZ');
  const world = creature.display.boneObjects[index]!.getWorldPosition(new Vector3());
  const link = (n: string) => <button key={n} className="link" onClick={() => select({ kind: 'bone', name: n })}>{n}</button>;
  return (
    <div data-testid="bone-inspector">
      <div className="inspector-heading"><span className="badge">Bone</span><span className="inspector-name">{bone.name}</span></div>
      <Section title="Hierarchy">
        <Row label="Parent">{parent ? link(parent) : <span className="muted">— (root)</span>}</Row>
        <Row label="Children">{children.length ? children.map(link) : <span className="muted">none</span>}</Row>
      </Section>
      <Section title="Rest pose (local)">
        <Vec label="Translation" value={bone.translation} unit="m" />
        <Vec label="Rotation" value={[euler.x * DEG, euler.y * DEG, euler.z * DEG]} unit="°" digits={1} />
        <Vec label="Scale" value={bone.scale} unit="" />
      </Section>
      <Section title="World">
        <Vec label="Position" value={world.toArray()} unit="m" />
      </Section>
      <Section title="Ragdoll">
        <label className="prop-row checkbox-row">
          <span className="prop-label">Include</span>
          <input
            type="checkbox"
            aria-label="Include in ragdoll"
            checked={included}
            onChange={(e) => told(editor.edits.setBoneIncluded(name, e.target.checked))}
          />
          <span className="hint">gets a rigid body when bodies are generated</span>
        </label>
        <div className="prop-row stacked">
          <span className="prop-label">Note</span>
          <CommitField label="Bone note" multiline value={note} onCommit={(v) => told(editor.edits.setBoneNote(name, v))} />
        </div>
      </Section>
    </div>
  );
}

function ProjectInspector() {
  const doc = useEditor((s) => s.document);
  const creature = useEditor((s) => s.creature);
  const file = useEditor((s) => s.file);
  if (!doc) return <div className="inspector-empty">No creature is open. Use File › Open Creature… or drop a .glb / .gltf on the viewport.</div>;
  const included = doc.rig.skeleton.bones.length - editorExtras(doc.rig).excludedBones.length;
  return (
    <div data-testid="project-inspector">
      <div className="inspector-heading"><span className="badge project">Project</span><span className="inspector-name">{doc.rig.name}</span></div>
      <Section title="Project">
        <Row label="Name">
          <CommitField label="Creature name" value={doc.rig.name} onCommit={(v) => told(editor.edits.rename(v))} />
        </Row>
        <Row label="File">{file.fileName ?? <span className="muted">not saved yet</span>}{file.dirty && <span className="dirty-dot" title="Unsaved changes"> ●</span>}</Row>
      </Section>
      <Section title="Creature">
        <Row label="File"><span title={doc.creature.path ?? undefined}>{doc.creature.name}</span>{doc.creature.builtin && <span className="muted"> (built in)</span>}</Row>
        {creature && (
          <>
            <Row label="Bones"><span className="num">{creature.skeleton.bones.length}</span> <span className="muted">({included} in ragdoll)</span></Row>
            <Row label="Meshes"><span className="num">{creature.display.skinnedMeshes.length}</span> <span className="muted">skinned</span></Row>
            <Row label="Triangles"><span className="num">{creature.display.triangles.toLocaleString('en-US')}</span></Row>
          </>
        )}
      </Section>
      <div className="inspector-tip">Select a bone in the viewport or the outliner to inspect it.</div>
    </div>
  );
}
