/**
 * Plots docked under the viewport (uPlot): time series of the preview's recording, synced with the
 * timeline — a vertical cursor at the playhead, and a click in any plot jumps the playhead there.
 *  - per selected joint: motor torque against its limit ±τmax, tracking error, joint angle against target
 *    (a hinge: the signed angle about its axis; a ball joint: the rotation angle |θ| of its child frame from
 *    its parent frame and the target's |θ| — magnitudes, as a 3-D rotation has no one signed angle; the
 *    legend says so);
 *  - per creature: root speed, heading error to the steering target, total kinetic energy.
 * The data are copied from the recording when it grows (throttled), never per animation frame.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { frames, onChange, seek } from '../preview/previewApi';
import { usePreview } from '../preview/previewStore';
import { hasPreviewClient } from '../preview/client';
import { useSolver } from '../preview/particleMode';
import { setSession, useEditor } from '../state/store';
import { plotChartSize } from './plotSize';
import './plots.css';

const AXIS_FONT = '10px system-ui, -apple-system, "Segoe UI", sans-serif';

const DEG = 180 / Math.PI;
const REFRESH_MS = 250;

export interface PlotSpec {
  id: string;
  title: string;
  unit: string;
  series: { label: string; color: string; dash?: number[]; values: (rec: ReturnType<typeof frames>) => ArrayLike<number> }[];
}

export function jointPlots(joint: string, type: string = 'hinge'): PlotSpec[] {
  const ball = type === 'ball';
  return [
    { id: 'torque', title: `${joint} · motor torque`, unit: 'N·m', series: [
      { label: 'torque', color: '#ff8c00', values: (r) => r.series(joint, 'torque') },
      { label: '+τmax', color: '#e5534b', dash: [5, 4], values: (r) => r.series(joint, 'maxTorque') },
      { label: '−τmax', color: '#e5534b', dash: [5, 4], values: (r) => r.series(joint, 'maxTorque').map((v) => -v) },
    ] },
    { id: 'tracking', title: `${joint} · tracking error`, unit: '°', series: [
      { label: 'error', color: '#e5b84b', values: (r) => r.series(joint, 'trackingError').map((v) => v * DEG) },
    ] },
    { id: 'angle', title: `${joint} · ${ball ? 'rotation angle |θ| from rest frame' : 'angle'} vs target`, unit: '°', series: [
      { label: ball ? '|θ| (ball: rotation magnitude)' : 'angle', color: '#5c9cf5', values: (r) => r.series(joint, 'angle').map((v) => v * DEG) },
      { label: ball ? 'target |θ|' : 'target', color: '#8bc34a', dash: [4, 3], values: (r) => r.series(joint, 'target').map((v) => v * DEG) },
    ] },
  ];
}

export const creaturePlots: PlotSpec[] = [
  { id: 'speed', title: 'creature · speed', unit: 'm/s', series: [{ label: 'speed', color: '#5c9cf5', values: (r) => r.series('creature', 'speed') }] },
  { id: 'heading', title: 'creature · heading error', unit: '°', series: [{ label: 'heading error', color: '#e5b84b', values: (r) => r.series('creature', 'headingError').map((v) => v * DEG) }] },
  { id: 'energy', title: 'creature · kinetic energy', unit: 'J', series: [{ label: 'kinetic energy', color: '#c678dd', values: (r) => r.series('creature', 'kineticEnergy') }] },
];

export function PlotsPanel() {
  // In the session (not local state): the centre column gives the height back when the plots collapse.
  const open = useEditor((s) => s.session.plotsOpen);
  const setOpen = (o: boolean) => setSession({ plotsOpen: o });
  const joint = useEditor((s) => (s.session.selection?.kind === 'joint' ? s.session.selection.name : null));
  const hasRig = useEditor((s) => (s.document?.rig.bodies.length ?? 0) > 0);
  const jointType = useEditor((s) => (joint ? s.document?.rig.joints.find((j) => j.name === joint)?.type ?? null : null));
  const recorded = usePreview((s) => s.recorded);
  // Under the particle solver there are no bodies or motors to plot (previewApi gives empty series).
  const particles = useSolver((s) => s.solver === 'particle' || s.scene !== null);
  const specs = useMemo(() => [...(joint ? jointPlots(joint, jointType ?? undefined) : []), ...creaturePlots], [joint, jointType]);
  // The charts take the height the bottom area leaves them (the split above the timeline sizes it).
  const body = useRef<HTMLDivElement>(null);
  const [bodyHeight, setBodyHeight] = useState(160);
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setBodyHeight(el.clientHeight));
    ro.observe(el);
    setBodyHeight(el.clientHeight);
    return () => ro.disconnect();
  }, [open]);
  const size = plotChartSize(bodyHeight);
  return (
    <section className={`plots-panel${open ? '' : ' collapsed'}`} data-testid="plots">
      <header className="panel-header plots-header">
        <button className="plots-toggle" aria-expanded={open} aria-label={open ? 'Collapse plots' : 'Expand plots'} onClick={() => setOpen(!open)}>{open ? '▾' : '▸'}</button>
        <span className="panel-title">Plots</span>
        <span className="plots-subtitle">{joint ? `joint ${joint} · creature` : 'creature — select a joint for its motor'}</span>
        <span className="plots-hint">click a plot to jump the timeline</span>
      </header>
      {open && (
        <div className="plots-body" ref={body}>
          {particles
            ? <div className="plots-empty">The plots read rigid bodies and motors: switch the preview to Rigid to plot them.</div>
            : !hasRig || !hasPreviewClient() || recorded === 0
            ? <div className="plots-empty">{hasRig ? 'Play the preview (or poke the creature) to record frames to plot.' : 'Generate bodies to preview and plot the ragdoll.'}</div>
            : specs.map((s) => <Plot key={`${joint ?? ''}:${jointType ?? ''}:${s.id}`} spec={s} height={size.height} legend={size.legend} />)}
        </div>
      )}
    </section>
  );
}

function Plot({ spec, height, legend }: { spec: PlotSpec; height: number; legend: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const heightNow = useRef(height);
  heightNow.current = height;
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const dtOf = () => usePreview.getState().dt;
    // The timeline's playhead as a vertical line: an element over the plot area moved on each playhead
    // change, not a canvas redraw. (It used to be drawn in uPlot's draw hook after `u.redraw(false)`, but
    // redraw(rebuildPaths, recalcAxes = false) also clears uPlot's pending "compute the axes" flag: a
    // playhead change in the same task as a new chart — opening a creature while the preview switches
    // engines — drew axes that were never computed: "object null is not iterable" in drawAxesGrid.)
    const line = document.createElement('div');
    line.className = 'plot-playhead';
    line.dataset.testid = 'plot-playhead';
    const placeLine = (u: uPlot) => {
      const x = u.valToPos(Math.max(0, usePreview.getState().playhead) * dtOf(), 'x');
      const inside = Number.isFinite(x) && x >= 0 && x <= u.bbox.width / devicePixelRatio + 0.5;
      line.style.display = inside ? '' : 'none';
      if (inside) line.style.transform = `translateX(${x.toFixed(1)}px)`;
    };
    const cursorPlugin: uPlot.Plugin = { hooks: { draw: [placeLine] } };
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: heightNow.current,
      title: `${spec.title} (${spec.unit})`,
      legend: { show: legend, live: true },
      cursor: { drag: { x: false, y: false }, points: { size: 5 } },
      scales: { x: { time: false } },
      axes: [
        // Short ticks and a 10 px font: uPlot's defaults (10 px ticks, 5 px gap, 12 px text) need 29 px and
        // the x axis has 22, which cut the time labels in half.
        { stroke: '#8d929b', grid: { stroke: '#33363c', width: 1 }, ticks: { stroke: '#33363c', size: 4 }, gap: 3, font: AXIS_FONT, size: 22, values: (_u, v) => v.map((s) => `${s.toFixed(1)}s`) },
        { stroke: '#8d929b', grid: { stroke: '#33363c', width: 1 }, ticks: { stroke: '#33363c', size: 4 }, gap: 3, font: AXIS_FONT, size: 44 },
      ],
      series: [{ label: 't (s)' }, ...spec.series.map((s) => ({ label: s.label, stroke: s.color, width: 1.5, dash: s.dash, points: { show: false } }))],
      plugins: [cursorPlugin],
    };
    const data = (): uPlot.AlignedData => {
      const rec = frames();
      return [rec.t, ...spec.series.map((s) => Array.from(s.values(rec)).map((v) => (Number.isFinite(v) ? v : null)))] as uPlot.AlignedData;
    };
    let u: uPlot;
    try {
      u = new uPlot(opts, data(), el);
      plot.current = u;
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    // Click → jump the timeline to that time.
    const over = u.over;
    over.appendChild(line);
    placeLine(u);
    const onClick = (e: MouseEvent) => {
      const t = u.posToVal(e.clientX - over.getBoundingClientRect().left, 'x');
      if (Number.isFinite(t)) seek(Math.max(0, Math.round(t / dtOf())));
    };
    over.addEventListener('click', onClick);
    let lastRecorded = usePreview.getState().recorded, timer: ReturnType<typeof setTimeout> | null = null;
    const off = onChange(() => {
      const rec = usePreview.getState().recorded;
      if (rec !== lastRecorded) {
        lastRecorded = rec;
        timer ??= setTimeout(() => { timer = null; try { u.setData(data()); } catch (e) { setError(e instanceof Error ? e.message : String(e)); } }, REFRESH_MS);
      } else {
        placeLine(u);
      }
    });
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: heightNow.current }));
    resize.observe(el);
    return () => { off(); resize.disconnect(); over.removeEventListener('click', onClick); if (timer) clearTimeout(timer); line.remove(); u.destroy(); plot.current = null; };
  }, [spec, legend]);

  useEffect(() => {
    const u = plot.current, el = host.current;
    if (u && el && u.height !== height) u.setSize({ width: Math.max(200, el.clientWidth), height });
  }, [height]);

  return (
    <div className="plot" data-plot={spec.id}>
      <div ref={host} />
      {error && <div className="field-error">{spec.title}: {error}</div>}
    </div>
  );
}
