/**
 * The preview under the particle solver, drawn: each bone as its capsule (radius r, half-height L/2, from
 * the recorded bone pose) and each particle as a dot, at the frame under the playhead. Translucent over a
 * skinned creature (PreviewLayer poses the mesh through the client), solid for a scene without one.
 *
 * The mouse on a bone, any tool (the particle ragdoll has no selection of its own), as the rigid Poke:
 *  - a click (press and release within DRAG_PX) is the paper's mouse impulse: the capsule under the
 *    cursor is picked at the shown frame (ParticlePoser.pick), and an `impulse` input of the Poke strength
 *    (N·s) along the view ray is stamped at that frame on the timeline — the worker re-simulates from the
 *    snapshot before it, exactly as the rigid preview's pokes;
 *  - a drag grabs the bone at the pressed point with the rigid grab's spring, moved as the cursor moves in
 *    the plane through the grab point facing the camera and let go on mouse up, each at the frame shown —
 *    one `grab` input carrying its path and release (shared/preview/input.ts), drawn as a line from the
 *    grabbed point to the cursor's point while it acts. A grab while paused plays the preview while the
 *    mouse is down and pauses again on release, as the rigid grab does (previewApi.ts): paused, every key
 *    and the release would land on the one frame shown and the spring would never act.
 * A press on empty space still orbits; Shift-click is left to the Poke tool's blast.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import {
  BufferAttribute, BufferGeometry, CapsuleGeometry, Color, Group, InstancedMesh, Line, LineBasicMaterial, Matrix4, Mesh, MeshStandardMaterial,
  Plane, Quaternion, Raycaster, SphereGeometry, Vector2, Vector3,
} from 'three';
import { useEditor } from '../../state/store';
import { notify } from '../../state/editor';
import { previewClient } from '../../preview/client';
import { usePreview } from '../../preview/previewStore';
import { particlePoser, type ParticlePoser } from '../../../../shared/preview/particlePose';
import { useSolver } from '../../preview/particleMode';
import { useAuthoring } from '../../authoring/authoringStore';
import { particleDrawStats } from './particleDrawStats';
import type { PreviewInput } from '../../../../shared/preview/engine';
import { extendGrab, releaseGrabAt, type GrabInput } from '../../../../shared/preview/input';
import { pickedBone, useScenePick } from '../../preview/sceneSelection';

/** A press on a bone that moves further than this (px) grabs instead of poking (as the rigid Poke tool). */
const DRAG_PX = 5;
const SPRING_COLOR = '#7fd1ff';
const BONE_COLOR = '#e8a33d';
const PARTICLE_COLOR = '#f4f1ea';
/** The bone picked in the outliner (a scene's bones, panels/SceneOutliner.tsx): blue against the amber. */
const PICKED_COLOR = '#5fb3ff';

const m = new Matrix4(), p = new Vector3(), q = new Quaternion(), s = new Vector3(1, 1, 1);

export function ParticleLayer() {
  // Re-render when a new recording (a reset) arrives or the solver/scene changes; frames are read in useFrame.
  usePreview((st) => st.recorded === 0);
  const solver = useSolver((st) => st.solver);
  const scene = useSolver((st) => st.scene);
  const hasCreature = useEditor((st) => st.creature !== null);
  const layout = previewClient().layout;
  const poser = particlePoser(layout);
  const active = poser !== null && (solver === 'particle' || scene !== null);
  const group = useRef<Group>(null);
  const built = useMemo(() => (poser ? buildMeshes(poser, !hasCreature) : null), [poser, hasCreature]);
  useEffect(() => () => built?.dispose(), [built]);
  useFramedScene(poser, scene !== null && active);
  useBoneMouse(active);

  useFrame(() => {
    if (!built || !poser || !active) { particleDrawStats.bones = 0; particleDrawStats.particles = 0; particleDrawStats.frame = -1; return; }
    const client = previewClient();
    const index = client.frameIndex(), frame = client.frame(index);
    if (!frame) { built.group.visible = false; particleDrawStats.frame = -1; return; }
    particleDrawStats.bones = built.bones.length; particleDrawStats.particles = built.dots.count; particleDrawStats.frame = index;
    built.group.visible = true;
    const info = poser.info;
    const picked = pickedBone(useScenePick.getState().pick);
    particleDrawStats.picked = picked !== null && info.boneNames.includes(picked) ? picked : null;
    info.boneNames.forEach((name, k) => {
      const o = info.poses + 7 * k, mesh = built.bones[k]!;
      mesh.material = name === picked ? built.pickedMaterial : built.material;
      mesh.position.set(frame[o]!, frame[o + 1]!, frame[o + 2]!);
      mesh.quaternion.set(frame[o + 3]!, frame[o + 4]!, frame[o + 5]!, frame[o + 6]!);
    });
    const x = poser.positions(frame);
    for (let i = 0; i < info.particleNames.length; i++) built.dots.setMatrixAt(i, m.compose(p.set(x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!), q.identity(), s));
    built.dots.instanceMatrix.needsUpdate = true;
    // The grab spring in force at this frame (aux grab block: active, grabbed point, spring target).
    const aux = client.auxOf(index), L = client.layout;
    const g = L ? L.aux.grab : 0;
    if (aux && L && aux[g] === 1) {
      built.spring.visible = true;
      const pos = built.spring.geometry.getAttribute('position') as BufferAttribute;
      for (let k = 0; k < 6; k++) (pos.array as Float32Array)[k] = aux[g + 1 + k]!;
      pos.needsUpdate = true;
      built.spring.geometry.computeBoundingSphere();
    } else built.spring.visible = false;
  });

  if (!active || !built) return null;
  return <group ref={group} name="particle-preview"><primitive object={built.group} /></group>;
}

function buildMeshes(poser: ParticlePoser, solid: boolean) {
  const info = poser.info;
  const group = new Group();
  const material = new MeshStandardMaterial({ color: new Color(BONE_COLOR), roughness: 0.55, transparent: !solid, opacity: solid ? 1 : 0.45, depthWrite: solid });
  const pickedMaterial = new MeshStandardMaterial({ color: new Color(PICKED_COLOR), roughness: 0.55, transparent: !solid, opacity: solid ? 1 : 0.6, depthWrite: solid });
  const geometries = info.boneNames.map((_, k) => new CapsuleGeometry(info.boneRadii[k]!, info.boneLengths[k]!, 6, 16));
  const bones = geometries.map((g, k) => {
    const mesh = new Mesh(g, material);
    mesh.name = `particle-bone:${info.boneNames[k]}`;
    mesh.castShadow = solid;
    group.add(mesh);
    return mesh;
  });
  // Dots a little smaller than the thinnest bone, so they read as joints.
  const dotRadius = Math.max(0.008, 0.6 * Math.min(...info.boneRadii, 0.04));
  const dotGeometry = new SphereGeometry(dotRadius, 12, 8);
  const dotMaterial = new MeshStandardMaterial({ color: new Color(PARTICLE_COLOR), roughness: 0.4, depthTest: !solid ? false : true, transparent: !solid });
  const dots = new InstancedMesh(dotGeometry, dotMaterial, Math.max(1, info.particleNames.length));
  dots.count = info.particleNames.length;
  dots.frustumCulled = false;
  dots.renderOrder = 2;
  group.add(dots);
  const springGeometry = new BufferGeometry();
  springGeometry.setAttribute('position', new BufferAttribute(new Float32Array(6), 3));
  const springMaterial = new LineBasicMaterial({ color: new Color(SPRING_COLOR), depthTest: false, transparent: true });
  const spring = new Line(springGeometry, springMaterial);
  spring.renderOrder = 3;
  spring.frustumCulled = false;
  spring.visible = false;
  group.add(spring);
  return {
    group, bones, dots, spring, material, pickedMaterial,
    dispose() { geometries.forEach((g) => g.dispose()); material.dispose(); pickedMaterial.dispose(); dotGeometry.dispose(); dotMaterial.dispose(); dots.dispose(); springGeometry.dispose(); springMaterial.dispose(); },
  };
}

/** A scene has no creature for the camera to frame: aim at where it will move (a pinned chain's reach). */
function useFramedScene(poser: ParticlePoser | null, enabled: boolean) {
  const { camera, controls } = useThree();
  useEffect(() => {
    const c = controls as unknown as { target: Vector3; update(): void } | null;
    if (!enabled || !poser || !c) return;
    const scene = poser.info.scene;
    const pinned = scene.constraints.flatMap((k) => (k.type === 'fixed' ? [k.particle] : []));
    const pos = new Map(scene.particles.map((x) => [x.name, x.position]));
    let center: Vector3, radius: number;
    if (pinned.length > 0) {
      // A pinned chain swings within its total bone length of the pin.
      center = new Vector3(...pos.get(pinned[0]!)!);
      radius = poser.info.boneLengths.reduce((a, b) => a + b, 0);
    } else {
      center = scene.particles.reduce((a, x) => a.add(new Vector3(...x.position)), new Vector3()).divideScalar(scene.particles.length);
      radius = Math.max(...scene.particles.map((x) => center.distanceTo(new Vector3(...x.position))), 0.3);
    }
    const fov = ('fov' in camera ? (camera as { fov: number }).fov : 40) * (Math.PI / 180);
    const distance = (radius / Math.sin(fov / 2)) * 1.1;
    c.target.copy(center);
    camera.position.copy(center).add(new Vector3(0.35, 0.25, 1).normalize().multiplyScalar(distance));
    camera.near = distance / 200;
    camera.far = distance * 200;
    camera.updateProjectionMatrix();
    c.update();
  }, [poser, enabled, camera, controls]);
}

const raycaster = new Raycaster();
const ndc = new Vector2();

function useBoneMouse(active: boolean) {
  const { gl, camera } = useThree();
  useEffect(() => {
    if (!active) return;
    const el = gl.domElement;
    let press: { x: number; y: number; body: string; point: [number, number, number]; direction: Vector3; grabbing: boolean } | null = null;
    /** The drag's one input on the timeline, replaced as it grows (gone if the inputs were cleared meanwhile). */
    let drag: GrabInput | null = null;
    /** The drag started the playback (it was paused): mouse up pauses it again. */
    let startedPlayback = false;
    const updateDrag = (next: GrabInput) => {
      const inputs = usePreview.getState().inputs, k = drag ? inputs.indexOf(drag) : -1;
      if (k < 0) { drag = null; return; }
      drag = next;
      previewClient().setInputs(inputs.map((x, i) => (i === k ? next : x)));
    };
    let swallowClick = false;
    const ray = (x: number, y: number) => {
      const r = el.getBoundingClientRect();
      ndc.set(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1);
      raycaster.setFromCamera(ndc, camera);
      return raycaster.ray;
    };
    const stop = (e: Event) => { e.stopPropagation(); e.stopImmediatePropagation(); };
    const stamp = (input: PreviewInput) => {
      const client = previewClient();
      client.addInput(input);
    };
    const frame = () => Math.max(0, previewClient().frameIndex());
    const onDown = (e: PointerEvent) => {
      swallowClick = false;
      if (e.button !== 0 || e.target !== el || e.shiftKey) return;
      const r = ray(e.clientX, e.clientY), o = r.origin, d = r.direction;
      const hit = previewClient().pickBody([o.x, o.y, o.z], [d.x, d.y, d.z], 1e3);
      if (!hit) return;
      // Ours alone: neither the orbit, bone selection nor the rigid poke sees this press.
      stop(e);
      press = { x: e.clientX, y: e.clientY, body: hit.body, point: hit.point, direction: d.clone(), grabbing: false };
    };
    const onMove = (e: PointerEvent) => {
      if (!press) return;
      stop(e);
      if (!press.grabbing && Math.hypot(e.clientX - press.x, e.clientY - press.y) > DRAG_PX) {
        press.grabbing = true;
        drag = { kind: 'grab', frame: frame(), body: press.body, point: press.point, path: [] };
        stamp(drag);
        startedPlayback = !usePreview.getState().playing;
        if (startedPlayback) previewClient().setPlaying(true);
        notify('info', `Grab ${press.body}`);
      }
      if (!press.grabbing) return;
      // The spring's end moves in the plane through the grab point facing the camera.
      plane.setFromNormalAndCoplanarPoint(camera.getWorldDirection(v), new Vector3(...press.point));
      if (!ray(e.clientX, e.clientY).intersectPlane(plane, v)) return;
      // Several moves within one frame keep only the last (extendGrab).
      if (drag) updateDrag(extendGrab(drag, frame(), [v.x, v.y, v.z]));
    };
    const onUp = (e: PointerEvent) => {
      if (!press) return;
      stop(e);
      const p = press;
      press = null;
      swallowClick = true;
      if (p.grabbing) {
        if (drag) updateDrag(releaseGrabAt(drag, frame()));
        drag = null;
        if (startedPlayback) { startedPlayback = false; previewClient().setPlaying(false); }
        return;
      }
      const strength = useAuthoring.getState().impulseStrength, d = p.direction;
      stamp({ kind: 'impulse', frame: frame(), body: p.body, point: p.point, impulse: [d.x * strength, d.y * strength, d.z * strength] });
      notify('info', `Impulse ${strength} N·s on ${p.body}`);
    };
    const onClick = (e: MouseEvent) => { if (swallowClick && e.target === el) { swallowClick = false; stop(e); } };
    // Window capture runs before the viewport's own capture handlers (bone and body picking, the orbit).
    window.addEventListener('pointerdown', onDown, true);
    window.addEventListener('pointermove', onMove, true);
    window.addEventListener('pointerup', onUp, true);
    window.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('pointerdown', onDown, true);
      window.removeEventListener('pointermove', onMove, true);
      window.removeEventListener('pointerup', onUp, true);
      window.removeEventListener('click', onClick, true);
    };
  }, [active, gl, camera]);
}

const plane = new Plane();
const v = new Vector3();
