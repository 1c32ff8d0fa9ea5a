/**
 * Preview controls in the main toolbar, as two toolbar groups: playback (play / pause, step, reset) and the
 * overlay toggles (the View choices: bodies — the one switch for the rig's shapes, editing or previewing —
 * joints, torque, contacts, path, camera follow), and Live simulate (live.ts: the physics at real time,
 * grab and poke acting at once; off returns to the recording). Also the preview's keyboard shortcuts: Space
 * play/pause, "." step, "," step back, Home reset, C camera follow, L Live simulate — ignored while typing
 * in a field. Under Live simulate, Space and Play stop it (back to the recording); step and reset stop it too.
 */
import { useEffect } from 'react';
import { previewClient } from '../preview/client';
import { toggleFollow, toggleOverlay, usePreview } from '../preview/previewStore';
import { activatesOnSpace, takesTyping } from '../state/keyTarget';
import { liveOn, stopLive, toggleLive, useLive } from '../preview/live';
import { VIEW_TOGGLES } from '../panels/viewToggles';

const Icon = ({ d }: { d: string }) => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden><path d={d} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" /></svg>
);
const icons = {
  play: 'M4.5 3 12.5 8 4.5 13z',
  pause: 'M5 3v10 M11 3v10',
  step: 'M4 3 10 8 4 13z M12.5 3v10',
  reset: 'M11.5 3 5.5 8l6 5z M3.5 3v10',
  bodies: 'M8 2.5a5.5 3 0 1 0 0.01 0 M2.5 5.5v5a5.5 3 0 0 0 11 0v-5',
  joints: 'M8 8h6 M8 8V2 M8 8 4 12 M8 8a1.5 1.5 0 1 0 0.01 0',
  torque: 'M3 12a5.5 5.5 0 1 1 10 0 M8 12l3-5',
  contacts: 'M2 13h12 M5 13a1.5 1.5 0 1 0 0.01 0 M11 13a1.5 1.5 0 1 0 0.01 0',
  path: 'M3 11c0-5 10-7 10-2s-6 5-10 2z',
  follow: 'M8 5.5a2.5 2.5 0 1 0 0.01 0 M8 1.5v2 M8 12.5v2 M1.5 8h2 M12.5 8h2',
  live: 'M8 8m-2 0a2 2 0 1 0 4 0a2 2 0 1 0-4 0 M3.5 3.5a6.4 6.4 0 0 0 0 9 M12.5 3.5a6.4 6.4 0 0 1 0 9',
};


/**
 * The preview's keyboard shortcuts; mounted once (the toolbar), not per rendering of the buttons — the
 * buttons may be drawn twice (bar and overflow menu) but Space must toggle once.
 */
export function usePreviewShortcuts(): void {
  useEffect(() => {
    // The one binding of Space in the app (play / pause). A held key's auto-repeat does not toggle again;
    // on a focused button the key-up is cancelled too, so the button is not pressed as well.
    let spaceDown = false;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || takesTyping(e.target)) return;
      const client = previewClient();
      if (e.key === 'l' || e.key === 'L') { toggleLive(); e.preventDefault(); return; }
      if (e.key === ' ' && liveOn()) { e.preventDefault(); if (!e.repeat) stopLive(); return; }
      if (e.key === '.' || e.key === ',' || e.key === 'Home') stopLive();
      if (e.key === ' ') {
        e.preventDefault();
        if (e.repeat) return;
        spaceDown = true;
        client.togglePlay();
        return;
      }
      if (e.key === '.') client.step(1);
      else if (e.key === ',') client.step(-1);
      else if (e.key === 'Home') client.reset();
      else if (e.key === 'c' || e.key === 'C') toggleFollow();
      else return;
      e.preventDefault();
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key !== ' ' || !spaceDown) return;
      spaceDown = false;
      if (activatesOnSpace(e.target)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKeyUp);
    return () => { window.removeEventListener('keydown', onKey); window.removeEventListener('keyup', onKeyUp); };
  }, []);
}

/** Play / pause, step, reset. Labels of icon-only buttons show in the overflow menu only (.tool-text.menu-only). */
export function PlaybackTools() {
  const playing = usePreview((s) => s.playing);
  const live = useLive((s) => s.on);
  const c = previewClient();
  return (
    <>
      <button className={`tool${live ? ' active' : ''}`} title="Live simulate: run the physics at real time, grab and poke the creature; off returns to the recording (L)" aria-label="Live simulate" aria-pressed={live} onClick={toggleLive}>
        <Icon d={icons.live} /><span className="tool-text">Live</span>
      </button>
      <button className={`tool${playing ? ' active' : ''}`} title="Play / pause the preview (Space)" aria-label={playing ? 'Pause preview' : 'Play preview'} onClick={() => { if (liveOn()) stopLive(); else c.togglePlay(); }}>
        <Icon d={playing ? icons.pause : icons.play} /><span className="tool-text">{playing ? 'Pause' : 'Play'}</span>
      </button>
      <button className="tool" title="Step one frame (.)" aria-label="Step preview one frame" onClick={() => c.step(1)}><Icon d={icons.step} /><span className="tool-text menu-only">Step</span></button>
      <button className="tool" title="Reset to frame 0 (Home)" aria-label="Reset preview" onClick={() => c.reset()}><Icon d={icons.reset} /><span className="tool-text menu-only">Reset</span></button>
    </>
  );
}

/** The overlay toggles and camera follow. */
export function OverlayTools() {
  const overlays = usePreview((s) => s.overlays);
  const follow = usePreview((s) => s.follow);
  return (
    <>
      {VIEW_TOGGLES.map((o) => (
        <button key={o.key} className={`tool${overlays[o.key] ? ' active' : ''}`} title={o.title} aria-label={o.name} aria-pressed={overlays[o.key]} onClick={() => toggleOverlay(o.key)}>
          <Icon d={icons[o.key]} /><span className="tool-text">{o.label}</span>
        </button>
      ))}
      <button className={`tool${follow ? ' active' : ''}`} title="Camera follows the creature (C)" aria-label="Camera follows the creature" aria-pressed={follow} onClick={toggleFollow}>
        <Icon d={icons.follow} /><span className="tool-text">Follow</span>
      </button>
    </>
  );
}
