/** The toolbar's "Rigid | Articulated | Particle" segmented control: which solver the preview runs (particleMode.ts). */
import { useEditor } from '../state/store';
import { setSolver, useSolver, type Solver } from './particleMode';

/** `short`: the label when the toolbar is tight (useToolbarFit's compact step); the button's name stays `label`. */
const OPTIONS: { solver: Solver; label: string; short: string; title: string }[] = [
  { solver: 'rigid', label: 'Rigid', short: 'Rig.', title: 'Preview with the rigid-body solver (maximal coordinates, sequential impulses; motors, gaits)' },
  { solver: 'articulated', label: 'Articulated', short: 'Art.', title: 'Preview with the articulated solver (joint coordinates, Featherstone: joints cannot come apart; motors, gaits; the joints must form a tree)' },
  { solver: 'particle', label: 'Particle', short: 'Part.', title: 'Preview the same creature as a particle ragdoll (Jakobsen/Verlet; click a bone to push it)' },
];

export function SolverSwitch() {
  const solver = useSolver((s) => s.solver);
  const scene = useSolver((s) => s.scene !== null);
  const hasDocument = useEditor((s) => s.document !== null);
  return (
    <div className="solver-switch" role="radiogroup" aria-label="Preview solver">
      {OPTIONS.map((o) => (
        <button
          key={o.solver}
          role="radio"
          aria-checked={solver === o.solver}
          aria-label={o.label}
          className={`tool${solver === o.solver ? ' active' : ''}`}
          title={scene ? 'A particle scene runs under the particle solver only' : o.title}
          disabled={scene || !hasDocument}
          onClick={() => setSolver(o.solver)}
        >
          <span className="tool-text">{o.label}</span>
          <span className="tool-short" aria-hidden="true">{o.short}</span>
        </button>
      ))}
    </div>
  );
}
