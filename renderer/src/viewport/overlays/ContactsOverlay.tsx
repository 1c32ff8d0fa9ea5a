/** Contact points of the shown frame (up to MAX_CONTACTS), sized by their normal impulse. */
import { useMemo, useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import { InstancedMesh, Matrix4, MeshBasicMaterial, SphereGeometry, Vector3, Quaternion } from 'three';
import { MAX_CONTACTS } from '../../../../shared/preview/engine';
import { previewClient } from '../../preview/client';
import { OVERLAY_COLORS, shown } from './frameData';

export function ContactsOverlay() {
  const mesh = useMemo(() => {
    const m = new InstancedMesh(new SphereGeometry(0.022, 12, 8), new MeshBasicMaterial({ color: OVERLAY_COLORS.contact, depthTest: false, transparent: true, opacity: 0.95 }), MAX_CONTACTS);
    m.renderOrder = 12;
    m.frustumCulled = false;
    return m;
  }, []);
  const tmp = useRef({ m: new Matrix4(), p: new Vector3(), q: new Quaternion(), s: new Vector3() });
  useFrame(() => {
    const client = previewClient();
    const s = shown(client);
    const L = client.layout;
    if (!s || !L) { mesh.count = 0; return; }
    const o = L.aux.contacts, n = s.aux[o]!;
    const t = tmp.current;
    for (let k = 0; k < n; k++) {
      const q = o + 1 + k * 4;
      // Radius grows with the impulse (N·s) so the pushing contacts stand out; bounded for a hard landing.
      const size = 0.6 + Math.min(1.4, Math.sqrt(Math.abs(s.aux[q + 3]!)) * 0.8);
      t.m.compose(t.p.set(s.aux[q]!, s.aux[q + 1]!, s.aux[q + 2]!), t.q, t.s.setScalar(size));
      mesh.setMatrixAt(k, t.m);
    }
    mesh.count = n;
    mesh.instanceMatrix.needsUpdate = true;
  });
  return <primitive object={mesh} />;
}
