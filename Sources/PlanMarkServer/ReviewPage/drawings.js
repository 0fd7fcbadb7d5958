// The drawing list: each drawing's name, size and open and resolved counts; a press opens it.
import { drawingPath, json } from './api.js';
import { byId, element } from './dom.js';
import { countsText } from './filters.js';
import { drawingHash } from './routes.js';

/** The list's button of drawing `name`, or undefined. */
function drawingButton(name) {
  return [...byId('drawings').querySelectorAll('button')].find((b) => b.dataset.name === name);
}

/** Shows a drawing's open and resolved counts from counts by status. */
export function showDrawingCounts(name, counts) {
  const b = drawingButton(name);
  if (b) b.querySelector('.counts').textContent = countsText(counts);
}

/** Open and resolved counts of a drawing from /summary. */
async function refreshCounts(name) {
  try {
    const summary = await json(drawingPath(name) + '/summary');
    showDrawingCounts(name, summary.byStatus);
  } catch (error) { /* the list still works without counts */ }
}

/** Marks the open drawing in the list (aria-current). */
export function markCurrentDrawing(state) {
  for (const b of byId('drawings').querySelectorAll('button')) {
    b.setAttribute('aria-current', String(state.drawing !== null && b.dataset.name === state.drawing.name));
  }
}

/** Reads GET /drawings into `state.drawings` and lists them; a press on one goes to its address. */
export async function loadDrawings(state) {
  const list = await json('/drawings');
  state.drawings = list.drawings;
  const ul = byId('drawings');
  ul.replaceChildren();
  if (state.drawings.length === 0) ul.append(element('li', 'No drawings in this store yet (planmark drawing add).'));
  for (const d of state.drawings) {
    const li = element('li');
    const b = element('button');
    b.type = 'button';
    b.dataset.name = d.name;
    b.append(element('span', d.name), element('span', `${d.width} × ${d.height} px`, 'meta'), element('span', `${d.markers} markers`, 'meta counts'));
    b.addEventListener('click', () => { location.hash = drawingHash(d.name); });
    li.append(b);
    ul.append(li);
    refreshCounts(d.name);
  }
  markCurrentDrawing(state);
}
