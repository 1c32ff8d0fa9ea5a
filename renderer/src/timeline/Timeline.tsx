/**
 * The timeline under the viewport: transport, speed, loop, and one canvas with the ruler (seconds), the
 * recorded-frames fill, the gait phase strip, the key track (steering-target keys ◆ and the other inputs)
 * and the playhead. Click or drag anywhere to scrub; drag the loop handles; drag a key to retime it,
 * Delete removes the selected key. The canvas redraws on requestAnimationFrame only when something moved.
 */
import { useEffect, useRef, useState } from 'react';
import { previewClient } from '../preview/client';
import { usePreview } from '../preview/previewStore';
import { useSolver } from '../preview/particleMode';
import type { PreviewInput } from '../../../shared/preview/engine';
import { targetMarker } from '../viewport/overlays/TargetMarker';
import { useEditor } from '../state/store';
import { drawTimeline, frameAtX, gaitDiagramHeight, limbCount, xOfFrame, TRACK, type TimelineGeometry } from './drawTimeline';
import './timeline.css';

const SPEEDS = [0.1, 0.25, 0.5, 1, 1.5, 2];
/** The panel's height without a gait diagram (timeline.css). */
const TIMELINE_HEIGHT = 104;

export function Timeline() {
  const s = usePreview();
  const client = previewClient();
  // No particle controller walks, so the particle engine ignores steering targets (particleEngine.ts).
  const particles = useSolver((v) => v.scene !== null || v.solver === 'particle');
  // The gait diagram's lanes (two or more limbs) make the panel taller.
  const limbs = useEditor((e) => limbCount(e.document?.rig));
  const extra = particles ? 0 : gaitDiagramHeight(limbs);
  const fmt = (f: number) => (f * s.dt).toFixed(2);
  const keyTarget = () => {
    const t = targetMarker.position;
    if (!t) return;
    const f = Math.max(0, client.frameIndex());
    const others = s.inputs.filter((i) => !(i.kind === 'target' && i.frame === f));
    client.setInputs([...others, { kind: 'target', frame: f, target: [t[0], 0, t[2]] }]);
  };
  return (
    <section className="timeline" data-testid="timeline" aria-label="Timeline" style={extra > 0 ? { height: TIMELINE_HEIGHT + extra } : undefined}>
      <div className="timeline-bar">
        <TransportButtons />
        <span className="tl-time num" data-testid="timeline-time">{fmt(s.playhead)} s <span className="muted">· frame {s.playhead}</span></span>
        <span className="tl-sep" />
        <label className="tl-field" title="Playback speed (0.1× – 2×)">
          Speed
          <select aria-label="Playback speed" value={s.speed} onChange={(e) => client.setSpeed(Number(e.target.value))}>
            {SPEEDS.map((v) => <option key={v} value={v}>{v}×</option>)}
          </select>
        </label>
        <label className="tl-field" title="Loop between the handles on the timeline">
          <input type="checkbox" aria-label="Loop" checked={s.loop.enabled}
            onChange={(e) => {
              const on = e.target.checked;
              if (on && s.loop.end <= s.loop.start) client.setLoop({ enabled: true, start: 0, end: Math.max(1, Math.min(s.recorded - 1, Math.round(4 / s.dt))) });
              else client.setLoop({ enabled: on });
            }} />
          Loop {s.loop.enabled && <span className="num muted">{fmt(s.loop.start)}–{fmt(s.loop.end)} s</span>}
        </label>
        <button className="tl-btn" onClick={keyTarget} disabled={particles}
          title={particles ? 'No steering under the particle solver: nothing walks toward a target (switch the preview to Rigid to key one)' : 'Store the steering target (the marker on the floor) at the playhead'}>◆ Key target</button>
        {s.inputs.length > 0 && <button className="tl-btn" onClick={() => client.setInputs([])} title="Remove every key and interaction from the timeline">Clear inputs ({s.inputs.length})</button>}
        <span className="tl-spacer" />
        {s.problem
          ? <span className="tl-problem" title={s.problem}>⚠ {s.problem}</span>
          : <span className="tl-stats num" title="Simulation speed in the worker and the median worker→viewport latency">
              {s.recorded > 0 ? `${fmt(s.recorded - 1)} s recorded` : 'simulating…'}
              {s.stats.stepsPerSecond > 0 && ` · ${Math.round(s.stats.stepsPerSecond * s.dt)}× real time`}
              {s.stats.latencyMs > 0 && ` · ${s.stats.latencyMs.toFixed(1)} ms`}
              {!s.stats.worker && ' · main thread'}
            </span>}
      </div>
      <TimelineCanvas />
    </section>
  );
}

const Glyph = ({ d }: { d: string }) => (
  <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden><path d={d} fill="currentColor" stroke="currentColor" strokeWidth="1.2" strokeLinejoin="round" /></svg>
);
const GLYPHS = { reset: 'M3 3h1.6v10H3z M13 3 5.5 8l7.5 5z', back: 'M13 3h-1.6v10H13z M3 8l7.5-5v10z', play: 'M4.5 3 12.5 8 4.5 13z', pause: 'M4.5 3h2.2v10H4.5z M9.3 3h2.2v10H9.3z', step: 'M3 3h1.6v10H3z M13 8 5.5 3v10z' };

export function TransportButtons() {
  const playing = usePreview((s) => s.playing);
  const c = previewClient();
  return (
    <span className="tl-transport" role="group" aria-label="Transport">
      <button className="tl-btn icon" aria-label="Reset to frame 0" title="Reset (Home)" onClick={() => c.reset()}><Glyph d={GLYPHS.reset} /></button>
      <button className="tl-btn icon" aria-label="Step back one frame" title="Step back (,)" onClick={() => c.step(-1)}><Glyph d={GLYPHS.back} /></button>
      <button className={`tl-btn icon play${playing ? ' on' : ''}`} aria-label={playing ? 'Pause' : 'Play'} title="Play / pause (Space)" onClick={() => c.togglePlay()}><Glyph d={playing ? GLYPHS.pause : GLYPHS.play} /></button>
      <button className="tl-btn icon" aria-label="Step one frame" title="Step (.)" onClick={() => c.step(1)}><Glyph d={GLYPHS.step} /></button>
    </span>
  );
}

type Drag = { kind: 'scrub' } | { kind: 'loop-start' | 'loop-end' } | { kind: 'key'; index: number; frame: number };

function TimelineCanvas() {
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const drag = useRef<Drag | null>(null);
  const [selectedKey, setSelectedKey] = useState<number>(-1);
  const geometry = useRef<TimelineGeometry | null>(null);

  useEffect(() => {
    let raf = 0;
    let last = '';
    const loop = () => {
      raf = requestAnimationFrame(loop);
      const c = canvas.current, w = wrap.current;
      if (!c || !w) return;
      const client = previewClient();
      const st = usePreview.getState();
      const dpr = window.devicePixelRatio || 1;
      const width = w.clientWidth, height = w.clientHeight;
      const sig = `${client.version}|${client.playhead.toFixed(2)}|${width}|${height}|${st.duration}|${st.loop.enabled}|${st.loop.start}|${st.loop.end}|${st.inputs.length}|${selectedKey}|${dpr}`;
      if (sig === last) return;
      last = sig;
      if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
        c.width = Math.round(width * dpr); c.height = Math.round(height * dpr);
        c.style.width = `${width}px`; c.style.height = `${height}px`;
      }
      const g = drawTimeline(c.getContext('2d')!, { width, height, dpr }, client, st, selectedKey);
      geometry.current = g;
      // What the gait diagram shows, for tests and tools: the lanes' limbs and their stance fractions.
      const names = g.lanes.map((l) => l.name).join(',');
      if (c.dataset.gaitLanes !== names) c.dataset.gaitLanes = names;
      c.dataset.gaitDuty = g.lanes.map((l) => l.duty.toFixed(3)).join(',');
    };
    raf = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(raf);
  }, [selectedKey]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (selectedKey < 0 || (e.key !== 'Delete' && e.key !== 'Backspace')) return;
      const t = e.target as HTMLElement | null;
      if (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) return;
      const inputs = usePreview.getState().inputs;
      if (!inputs[selectedKey]) return;
      e.preventDefault();
      previewClient().setInputs(inputs.filter((_, i) => i !== selectedKey));
      setSelectedKey(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selectedKey]);

  const local = (e: React.PointerEvent) => {
    const r = canvas.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const onDown = (e: React.PointerEvent) => {
    const g = geometry.current;
    if (!g || e.button !== 0) return;
    const { x, y } = local(e);
    const st = usePreview.getState();
    const client = previewClient();
    (e.target as Element).setPointerCapture(e.pointerId);
    if (st.loop.enabled && y < TRACK.ruler) {
      if (Math.abs(x - xOfFrame(g, st.loop.start)) < 6) { drag.current = { kind: 'loop-start' }; return; }
      if (Math.abs(x - xOfFrame(g, st.loop.end)) < 6) { drag.current = { kind: 'loop-end' }; return; }
    }
    if (y >= g.keyTop && y <= g.keyTop + TRACK.keys) {
      const hit = st.inputs.findIndex((inp) => Math.abs(xOfFrame(g, inp.frame) - x) < 6);
      setSelectedKey(hit);
      if (hit >= 0) { drag.current = { kind: 'key', index: hit, frame: st.inputs[hit]!.frame }; client.seek(st.inputs[hit]!.frame); return; }
    }
    drag.current = { kind: 'scrub' };
    client.setPlaying(false);
    client.seek(frameAtX(g, x));
  };

  const onMove = (e: React.PointerEvent) => {
    const d = drag.current, g = geometry.current;
    if (!d || !g) return;
    const f = frameAtX(g, local(e).x);
    const client = previewClient();
    if (d.kind === 'scrub') client.seek(f);
    else if (d.kind === 'loop-start') client.setLoop({ start: Math.min(f, usePreview.getState().loop.end - 1) });
    else if (d.kind === 'loop-end') client.setLoop({ end: Math.max(f, usePreview.getState().loop.start + 1) });
    else if (d.kind === 'key') { d.frame = f; client.seek(f); }
  };

  const onUp = (e: React.PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    (e.target as Element).releasePointerCapture?.(e.pointerId);
    if (d?.kind === 'key') {
      const inputs = usePreview.getState().inputs;
      const k = inputs[d.index];
      if (k && k.frame !== d.frame) previewClient().setInputs(inputs.map((inp, i) => (i === d.index ? ({ ...inp, frame: d.frame } as PreviewInput) : inp)));
    }
  };

  return (
    <div className="timeline-tracks" ref={wrap}>
      <canvas ref={canvas} data-testid="timeline-canvas" onPointerDown={onDown} onPointerMove={onMove} onPointerUp={onUp} />
    </div>
  );
}

