/**
 * The 3D view: orbit camera, floor grid with shadows, the creature's skinned mesh, and overlays.
 * Everything that moves per frame is mutated in useFrame; React renders only when the creature, the
 * view toggles or the framing request change.
 */
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { clickEndsDrag } from './useDragGesture';
import { Canvas, useFrame, useThree } from '@react-three/fiber';
import { Grid, OrbitControls } from '@react-three/drei';
import { Matrix4, Vector3, PCFShadowMap, type Camera } from 'three';
import type { OrbitControls as OrbitControlsImpl } from 'three-stdlib';
import { setSession, useEditor } from '../state/store';
import { openDroppedFiles, select } from '../state/editor';
import { creatureBounds } from '../creature/loadDisplay';
import { bonePickingHandlers } from './bonePicking';
import { Overlays } from './overlays';
import { activeSkeletonOverlay } from './SkeletonLayer';
import { setViewportHandle, viewportStats } from './viewportHandle';
import { VIEWPORT_BACKGROUND } from './theme';
import { isTestBuild } from '../testing/testBuild';
import { useSolver } from '../preview/solverState';
import { hasPreviewClient, previewClient } from '../preview/client';
import { usePreview, type PreviewState } from '../preview/previewStore';
import { shownPose } from '../preview/shownPose';
import { traceDrawn } from '../preview/editTrace';
import { decideDraw, newDrawMemory, noteDraw, regressOnInput, type FrameFacts } from './drawPolicy';
import { ScaleBanner } from '../authoring/ScaleBanner';

export function Viewport() {
  const [dragOver, setDragOver] = useState(false);
  const loading = useEditor((s) => s.loading);
  const hasCreature = useEditor((s) => s.creature !== null);
  const fileName = useEditor((s) => s.creature?.fileName ?? null);
  const sceneName = useSolver((s) => s.scene?.name ?? null);

  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    setDragOver(false);
    const files = [...e.dataTransfer.files];
    if (files.length === 0) return;
    await openDroppedFiles(files);
  };

  return (
    <div
      className={`viewport${dragOver ? ' drag-over' : ''}`}
      data-testid="viewport"
      onDragOver={(e) => { e.preventDefault(); setDragOver(true); }}
      onDragLeave={() => setDragOver(false)}
      onDrop={(e) => void onDrop(e)}
    >
      <Canvas
        shadows={{ type: PCFShadowMap }}
        dpr={isTestBuild ? 1 : [1, 2]}
        camera={{ position: [1.6, 1.2, 2.2], fov: 40, near: 0.01, far: 1000 }}
        gl={{ preserveDrawingBuffer: isTestBuild, antialias: true }}
        onPointerMissed={(e) => { if (e.button === 0 && !clickEndsDrag()) select(null); }}
      >
        <color attach="background" args={[VIEWPORT_BACKGROUND]} />
        <Lights />
        <Floor />
        <CreatureMesh />
        <Overlays />
        <CameraRig />
        <ViewportProbe />
        <RenderWhenChanged />
      </Canvas>
      <div className="viewport-label">Perspective · {loading ? `loading ${loading}…` : (fileName ?? (sceneName ? `${sceneName} · particle solver` : 'empty'))}</div>
      <ScaleBanner />
      {!hasCreature && !loading && !sceneName && <div className="viewport-empty">Drop a .glb / .gltf / .fbx creature here, or use File › Open Creature…</div>}
      {dragOver && <div className="viewport-drop">Drop to open the creature</div>}
    </div>
  );
}

function Lights() {
  return (
    <>
      <hemisphereLight args={['#dfe8f5', '#3a3530', 1.1]} />
      <directionalLight
        position={[3, 6, 4]}
        intensity={2.2}
        castShadow
        shadow-mapSize={[2048, 2048]}
        shadow-camera-left={-4}
        shadow-camera-right={4}
        shadow-camera-top={4}
        shadow-camera-bottom={-4}
        shadow-camera-near={0.5}
        shadow-camera-far={20}
        shadow-bias={-0.0005}
        shadow-normalBias={0.02}
      />
    </>
  );
}

function Floor() {
  return (
    <>
      <mesh rotation-x={-Math.PI / 2} receiveShadow position-y={-0.0005}>
        <planeGeometry args={[200, 200]} />
        <shadowMaterial transparent opacity={0.35} />
      </mesh>
      <Grid
        infiniteGrid
        cellSize={0.1}
        cellThickness={0.6}
        cellColor="#3a3d43"
        sectionSize={1}
        sectionThickness={1.1}
        sectionColor="#50545c"
        fadeDistance={40}
        fadeStrength={1.5}
        followCamera={false}
      />
    </>
  );
}

function CreatureMesh() {
  const creature = useEditor((s) => s.creature);
  const showMesh = useEditor((s) => s.session.showMesh);
  // The rig's bones are stored in metres at its skeleton.scale (metres per file unit, set by Rescale): the
  // file's mesh is drawn at that scale, on the group above the creature's root (what the authoring input
  // leaves out, creatureInput.ts).
  const scale = useEditor((s) => s.document?.rig.skeleton.scale ?? 1);
  if (!creature) return null;
  return (
    <group {...bonePickingHandlers} scale={scale}>
      <primitive object={creature.display.root} visible={showMesh} />
    </group>
  );
}

const tmp = new Vector3();

/** Whether a world point is on screen (inside the view frustum, in front of the camera). */
function inView(point: Vector3, camera: Camera): boolean {
  const p = point.clone().project(camera);
  return p.z > -1 && p.z < 1 && Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1;
}

/** Orbit controls, and framing (F, every creature opened): aim at the selection or the whole creature. */
function CameraRig() {
  const controls = useRef<OrbitControlsImpl>(null);
  const camera = useThree((s) => s.camera);
  const frameRequest = useEditor((s) => s.session.frameRequest);
  useEffect(() => {
    const c = controls.current;
    const { creature, session } = useEditor.getState();
    if (!c || !creature) return;
    const bounds = creatureBounds(creature.display);
    if (session.cameraRequest) {
      // A saved project's view comes back as it was left — when the creature is in it (a view saved while
      // Follow carried the camera along a crawl may look at empty floor once the creature is back at rest).
      const { position, target } = session.cameraRequest;
      setSession({ cameraRequest: null });
      c.target.set(...target);
      camera.position.set(...position);
      const d = camera.position.distanceTo(c.target);
      camera.near = Math.max(d / 200, 1e-4);
      camera.far = d * 200;
      camera.updateProjectionMatrix();
      c.update();
      camera.updateMatrixWorld();
      if (inView(bounds.getCenter(new Vector3()), camera)) return;
    }
    const center = bounds.getCenter(new Vector3());
    let radius = Math.max(bounds.getSize(new Vector3()).length() / 2, 0.05);
    const sel = session.selection;
    const index = sel ? creature.skeleton.bones.findIndex((b) => b.name === sel.name) : -1;
    if (index >= 0) {
      creature.display.boneObjects[index]!.getWorldPosition(center);
      radius = Math.max(radius * 0.4, 0.05);
    }
    // Distance at which a sphere of `radius` fills the vertical field of view, with 30 % margin.
    const fov = ('fov' in camera ? (camera as { fov: number }).fov : 40) * (Math.PI / 180);
    // The half-diagonal over-estimates a creature's extent, so little extra margin is needed.
    const distance = (radius / Math.sin(fov / 2)) * 0.95;
    const dir = tmp.copy(camera.position).sub(c.target);
    if (dir.lengthSq() < 1e-12) dir.set(0.6, 0.45, 0.8);
    dir.normalize();
    c.target.copy(center);
    camera.position.copy(center).addScaledVector(dir, distance);
    camera.near = distance / 200;
    camera.far = distance * 200;
    camera.updateProjectionMatrix();
    c.update();
  }, [frameRequest, camera]);
  return <OrbitControls ref={controls} makeDefault enableDamping dampingFactor={0.15} />;
}

/** Frame-rate measurement and the handle code outside the Canvas uses (test hook, panels). */
function ViewportProbe() {
  const { camera, gl, controls } = useThree();
  const acc = useRef({ frames: 0, since: performance.now() });
  useEffect(() => {
    setViewportHandle({
      camera,
      gl,
      boneScreenPosition(bone) {
        const { creature } = useEditor.getState();
        const i = creature ? creature.skeleton.bones.findIndex((b) => b.name === bone) : -1;
        if (!creature || i < 0) return null;
        const p = creature.display.boneObjects[i]!.getWorldPosition(new Vector3()).project(camera);
        if (p.z > 1) return null;
        const rect = gl.domElement.getBoundingClientRect();
        return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
      },
      highlightedBones: () => activeSkeletonOverlay?.highlightedBones() ?? [],
      cameraPose: () => {
        const target = (controls as unknown as { target?: Vector3 } | null)?.target;
        return target ? { position: camera.position.toArray(), target: target.toArray() } : null;
      },
    });
    return () => setViewportHandle(null);
  }, [camera, gl, controls]);
  useFrame(() => {
    const a = acc.current;
    a.frames++;
    viewportStats.frames++;
    const now = performance.now();
    if (now - a.since >= 500) {
      viewportStats.fps = (a.frames * 1000) / (now - a.since);
      a.frames = 0;
      a.since = now;
    }
  });
  return null;
}

/** A camera matrix counts as moved past this (per element; m for the translation): the camera follow and the
 *  orbit damping approach their rest by ever smaller steps that no pixel shows. */
const CAMERA_EPS = 1e-5;
const moved = (a: Matrix4, b: Matrix4): boolean => a.elements.some((x, i) => Math.abs(x - b.elements[i]!) > CAMERA_EPS);

/** The test build keeps full resolution (the end-to-end tests count the canvas's pixels) unless the page sets
 *  localStorage[ADAPTIVE_DPR_KEY] = '1' before it loads, as bench/preview-latency.ts does. */
export const ADAPTIVE_DPR_KEY = 'marionette.adaptiveDpr';
const adaptiveDpr = (): boolean => {
  if (!isTestBuild) return true;
  try { return globalThis.localStorage?.getItem(ADAPTIVE_DPR_KEY) === '1'; } catch { return false; }
};

/**
 * Draws the scene only when the picture may have changed (issue 17: a software renderer spends 100–200 ms
 * on one frame of this scene, and redrawing an unchanged picture every frame kept the main thread from the
 * worker's frames): on R3F's own invalidation (React prop changes, orbit controls), within ACTIVE_MS of a
 * pointer, wheel or key event or a change in the editor, preview (but its fill count and speed stats) or
 * solver stores, when the preview shows
 * another frame or the frame shown may have changed (the client's epoch: a reset or a cut, not frames
 * merely added behind the playhead while the worker fills the timeline), while playing, when the camera or the canvas size changes, and at least
 * every IDLE_REDRAW_MS — except while a rig edit's frame under the playhead is on its way (client.ts,
 * holding(): at most 0.25 s), when the picture is kept and the next draw shows the edit. On a slow renderer
 * the draws for an interaction are made at half the pixel ratio (drawPolicy.ts). useFrame callbacks
 * still run on every animation frame (a positive priority takes the render over from R3F).
 */
function RenderWhenChanged() {
  const last = useRef(newDrawMemory(adaptiveDpr()));
  const view = useRef(new Matrix4()), proj = useRef(new Matrix4());
  useEffect(() => {
    // On a slow renderer an input regresses the resolution at once: the first frame drawn for it is cheap.
    const bump = () => regressOnInput(last.current, performance.now());
    const events = ['pointerdown', 'pointermove', 'pointerup', 'wheel', 'keydown', 'keyup', 'resize', 'focus', 'blur'] as const;
    for (const e of events) window.addEventListener(e, bump, { capture: true, passive: true });
    // The preview store's fill count and speed stats change with every published batch while the worker
    // fills the timeline: they redraw the timeline bar, not this picture (only whether anything is recorded
    // does, through React). Drawing on them kept this thread ~0.2 s per batch from the next one (issue 17).
    const previewChanged = (s: PreviewState, p: PreviewState) => {
      if ((s.recorded > 0) !== (p.recorded > 0)) return bump();
      for (const k of Object.keys(s) as (keyof PreviewState)[]) if (s[k] !== p[k] && k !== 'recorded' && k !== 'stats') return bump();
    };
    const subs = [useEditor.subscribe(bump), usePreview.subscribe(previewChanged), useSolver.subscribe(bump)];
    return () => { for (const e of events) window.removeEventListener(e, bump, { capture: true }); subs.forEach((u) => u()); };
  }, []);
  useFrame((state) => {
    const { gl, scene, camera, size } = state;
    const l = last.current, now = performance.now();
    const client = hasPreviewClient() ? previewClient() : null;
    camera.updateMatrixWorld();
    const f: FrameFacts = {
      now, epoch: client?.epoch ?? -1, index: client?.frameIndex() ?? -2, w: size.width, h: size.height, dpr: gl.getPixelRatio(), initialDpr: state.viewport.dpr,
      invalidated: state.internal.frames > 0, playing: usePreview.getState().playing, cameraMoved: moved(camera.matrixWorld, view.current) || moved(camera.projectionMatrix, proj.current),
      holding: client?.holding() ?? false,
    };
    const d = decideDraw(l, f);
    if (!d.draw) return;
    // The renderer's own pixel ratio (a change resizes the drawing buffer, keeping the canvas's CSS size).
    if (d.dpr !== f.dpr) gl.setPixelRatio(d.dpr);
    gl.render(scene, camera);
    viewportStats.renders++;
    client?.noteDrawn();
    traceDrawn(shownPose.generation, shownPose.index, d.dpr / f.initialDpr);
    noteDraw(l, f, d.dpr);
    view.current.copy(camera.matrixWorld); proj.current.copy(camera.projectionMatrix);
  }, 1);
  return null;
}

