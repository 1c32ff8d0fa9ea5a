/**
 * FBXLoader makes Phong (or Lambert) materials; the viewport's lights and environment are set up for the
 * physically based materials glTF creatures get. Each FBX material becomes a MeshStandardMaterial with the
 * same colour, maps, emissive, opacity and sides, so an FBX creature is lit like its glTF twin.
 * Roughness from Phong shininess n through the usual Blinn-Phong ↔ Beckmann match, roughness = √(2/(n+2))
 * (n = 0 → 1, n = 30 → 0.25, n = 100 → 0.14); metalness 0 (FBX's Phong has no metal).
 */
import { MeshStandardMaterial, type Material, type Mesh, type MeshLambertMaterial, type MeshPhongMaterial, type Object3D } from 'three';

export function standardMaterials(root: Object3D): void {
  const converted = new Map<Material, MeshStandardMaterial>();
  const convert = (m: Material): Material => {
    const phong = m as MeshPhongMaterial | MeshLambertMaterial;
    if (!(phong as MeshPhongMaterial).isMeshPhongMaterial && !(phong as MeshLambertMaterial).isMeshLambertMaterial) return m;
    let out = converted.get(m);
    if (!out) {
      const shininess = (phong as MeshPhongMaterial).isMeshPhongMaterial ? (phong as MeshPhongMaterial).shininess : 0;
      out = new MeshStandardMaterial({
        name: phong.name,
        color: phong.color,
        map: phong.map,
        normalMap: (phong as MeshPhongMaterial).normalMap ?? null,
        emissive: phong.emissive,
        emissiveMap: phong.emissiveMap,
        emissiveIntensity: phong.emissiveIntensity,
        alphaMap: phong.alphaMap,
        opacity: phong.opacity,
        transparent: phong.transparent,
        side: phong.side,
        vertexColors: phong.vertexColors,
        roughness: Math.sqrt(2 / (Math.max(0, shininess) + 2)),
        metalness: 0,
      });
      converted.set(m, out);
      m.dispose();
    }
    return out;
  };
  root.traverse((o) => {
    const mesh = o as Mesh;
    if (!mesh.isMesh) return;
    mesh.material = Array.isArray(mesh.material) ? mesh.material.map(convert) : convert(mesh.material);
  });
}
