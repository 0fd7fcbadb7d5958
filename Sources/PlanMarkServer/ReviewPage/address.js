// The address of what the page shows: the open drawing, the marker whose popup is open, and the punch list's filter.
import { filterQuery } from './list-filter.js';
import { drawingHash } from './routes.js';

/** The hash of the open drawing (at marker `number` when given) with the filter the page shows. */
export function addressOf(state, number) {
  return drawingHash(state.drawing.name, number, filterQuery(state.visible, state.conditions));
}

/** Writes the address of what the page shows, without a new entry in the browser's history. */
export function showAddress(state) {
  if (state.drawing) history.replaceState(null, '', addressOf(state, state.openNumber));
}
