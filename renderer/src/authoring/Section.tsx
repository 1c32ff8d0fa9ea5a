/**
 * A titled section of the authoring inspectors (bodies, joints, motors, collision, preview controls), with
 * optional tools on its title row. Its own module so the inspectors that nest each other (BodyInspector
 * holds CollisionMatrix's filter) share it without importing one another.
 */
import type { ReactNode } from 'react';

export function Section({ title, children, tools }: { title: string; children: ReactNode; tools?: ReactNode }) {
  return (
    <div className="inspector-section">
      <div className="inspector-section-title authoring-section-title"><span>{title}</span>{tools && <span className="section-tools">{tools}</span>}</div>
      {children}
    </div>
  );
}
