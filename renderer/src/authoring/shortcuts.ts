/** Authoring keys (no modifier, not while typing): W / E / R gizmo move / rotate / scale, Delete removes
 *  the selected body or joint. Returns whether the key was ours. */
import { deleteSelection } from './actions';
import { setAuthoring } from './authoringStore';

export function authoringShortcut(key: string): boolean {
  switch (key) {
    case 'w': setAuthoring({ gizmoMode: 'translate' }); return true;
    case 'e': setAuthoring({ gizmoMode: 'rotate' }); return true;
    case 'r': setAuthoring({ gizmoMode: 'scale' }); return true;
    case 'delete': deleteSelection(); return true;
    default: return false;
  }
}
