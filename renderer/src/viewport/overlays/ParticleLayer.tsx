/**
 * The preview under the particle solver, drawn: each bone as its capsule (radius r, half-height L/2, from
 * the recorded bone pose) and each particle as a dot, at the frame under the playhead. Translucent over a
 * skinned creature (PreviewLayer poses the mesh through the client), solid for a scene without one.
 *
 * A click on a bone (a press and release within CLICK_PX, any tool) is the paper's mouse impulse: the
 * capsule under the cursor is picked at the shown frame (ParticlePoser.pick), and an `impulse` input of
 * the Poke strength (N·s) along the view ray is stamped at that frame on the timeline — the worker
 * re-simulates from the snapshot before it, exactly as the rigid preview's pokes.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import { CapsuleGeometry, Color, Group, InstancedMesh, Matrix4, Mesh, MeshStandardMaterial, Quaternion, Raycaster, SphereGeometry, Vector2, Vector3 } from 'three';
import { useEditor } from '../../state/store';
import { notify } from '../../state/editor';
import { previewClient } from '../../preview/client';
import { usePreview } from '../../preview/previewStore';
import { particlePoser, type ParticlePoser } from '../../preview/particlePose';
import { useSolver } from '../../preview/particleMode';
import { useAuthoring } from '../../authoring/authoringStore';
import { isTestBuild } from '../../testing/testBuild';
import { installParticleTestHook } from '../../preview/particleTestHook';

if (isTestBuild) installParticleTestHook();

/** A press that moves further than this (px) is an orbit drag, not a click. */
const CLICK_PX = 4;
const BONE_COLOR = '#e8a33d';
const PARTICLE_COLOR = '#f4f1ea';

/** What the layer drew last (bones, particles, frame index): for the test hook, never for React. */
export const particleDrawStats = { bones: 0, particles: 0, frame: -1 };

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
  useBoneClicks(active);

  useFrame(() => {
    if (!built || !poser || !active) { particleDrawStats.bones = 0; particleDrawStats.particles = 0; particleDrawStats.frame = -1; return; }
    const client = previewClient();
    const index = client.frameIndex(), frame = client.frame(index);
    if (!frame) { built.group.visible = false; particleDrawStats.frame = -1; return; }
    particleDrawStats.bones = built.bones.length; particleDrawStats.particles = built.dots.count; particleDrawStats.frame = index;
    built.group.visible = true;
    const info = poser.info;
    info.boneNames.forEach((_, k) => {
      const o = info.poses + 7 * k, mesh = built.bones[k]!;
      mesh.position.set(frame[o]!, frame[o + 1]!, frame[o + 2]!);
      mesh.quaternion.set(frame[o + 3]!, frame[o + 4]!, frame[o + 5]!, frame[o + 6]!);
    });
    const x = poser.positions(frame);
    for (let i = 0; i < info.particleNames.length; i++) built.dots.setMatrixAt(i, m.compose(p.set(x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!), q.identity(), s));
    built.dots.instanceMatrix.needsUpdate = true;
  });

  if (!active || !built) return null;
  return <group ref={group} name="particle-preview"><primitive object={built.group} /></group>;
}

function buildMeshes(poser: ParticlePoser, solid: boolean) {
  const info = poser.info;
  const group = new Group();
  const material = new MeshStandardMaterial({ color: new Color(BONE_COLOR), roughness: 0.55, transparent: !solid, opacity: solid ? 1 : 0.45, depthWrite: solid });
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
  return {
    group, bones, dots,
    dispose() { geometries.forEach((g) => g.dispose()); material.dispose(); dotGeometry.dispose(); dotMaterial.dispose(); dots.dispose(); },
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

function useBoneClicks(active: boolean) {
  const { gl, camera } = useThree();
  useEffect(() => {
    if (!active) return;
    const el = gl.domElement;
    let down: { x: number; y: number } | null = null;
    const onDown = (e: PointerEvent) => { down = e.button === 0 && e.target === el ? { x: e.clientX, y: e.clientY } : null; };
    const onClick = (e: MouseEvent) => {
      if (e.target !== el || !down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > CLICK_PX || e.shiftKey) return;
      const r = el.getBoundingClientRect();
      ndc.set(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
      raycaster.setFromCamera(ndc, camera);
      const o = raycaster.ray.origin, d = raycaster.ray.direction;
      const client = previewClient();
      const hit = client.pickBody([o.x, o.y, o.z], [d.x, d.y, d.z], 1e3);
      if (!hit) return;
      // Ours alone: neither bone selection nor the rigid poke sees this click.
      e.stopPropagation(); e.stopImmediatePropagation();
      const strength = useAuthoring.getState().impulseStrength;
      client.addInput({ kind: 'impulse', frame: Math.max(0, client.frameIndex()), body: hit.body, point: hit.point, impulse: [d.x * strength, d.y * strength, d.z * strength] });
      notify('info', `Impulse ${strength} N·s on ${hit.body}`);
    };
    // Window capture runs before the viewport's own capture handlers (bone and body picking).
    window.addEventListener('pointerdown', onDown, true);
    window.addEventListener('click', onClick, true);
    return () => { window.removeEventListener('pointerdown', onDown, true); window.removeEventListener('click', onClick, true); };
  }, [active, gl, camera]);
}
