// The header's tiles status (#tiles-status, role="status"): while the server is still making the open drawing's tile
// pyramid it says how far it is (tiles-status-text.js), reading the drawing again every `every` ms until the pyramid is
// made, another drawing is opened or the page is left; then it hides.
import { drawingPath, json } from './api.js';
import { byId } from './dom.js';
import { tilesStatusText } from './tiles-status-text.js';

/** The next reading's timer, or null. */
let timer = null;
/** The next reading while one is due (the page may be left before it), or null. */
let due = null;

/** Shows `text` in the status ('' hides it). */
function show(text) {
  const status = byId('tiles-status');
  if (!status) return;
  status.textContent = text;
  status.hidden = text === '';
}

/**
 * Follows the pyramid of `drawing` (the JSON the page opened it with) while it is the open one (`state.generation`
 * unchanged): shows its progress and reads the drawing again every `every` ms while it is below 1. A reading that
 * fails hides the status and stops (the tiles come all the same).
 */
export function followTilesProgress(state, drawing, { every = 2000 } = {}) {
  clearTimeout(timer);
  timer = null;
  due = null;
  const generation = state.generation;
  let reading = 1;
  const next = async () => {
    timer = null;
    due = null;
    if (generation !== state.generation) return;
    reading += 1;
    try {
      const again = await json(drawingPath(drawing.name));
      shown(again.tiles?.progress);
    } catch {
      if (generation === state.generation) show('');
    }
  };
  const shown = (progress) => {
    if (generation !== state.generation) return;
    show(tilesStatusText(progress, reading));
    if (typeof progress === 'number' && progress < 1) {
      due = next;
      timer = setTimeout(next, every);
    }
  };
  shown(drawing.tiles?.progress);
}

// A page left (or kept for Back) reads nothing; brought back from the back/forward cache, it reads at once.
window.addEventListener('pagehide', () => { clearTimeout(timer); timer = null; });
window.addEventListener('pageshow', (event) => { if (event.persisted && due && timer === null) due(); });
