// Who is signed in: GET /me (after the token dialog when the server asks for one), kept in `state.me`; the
// header's "NAME · ROLE" (the role in the open drawing's project, "operator" for the operator), and the Place
// section only for a role that may place markers. What the role may do is permissions.js's to decide.
import { json } from './api.js';
import { byId } from './dom.js';
import { accessTo, may, signedInText } from './permissions.js';

/** Reads GET /me into `state.me` (null when it cannot be read: then the page offers everything and the service decides). */
export async function loadMe(state) {
  try {
    state.me = await json('/me');
  } catch (error) {
    state.me = null;
  }
  if (state.drawing) state.access = accessTo(state.me, state.drawing.project);
}

/** Shows who is signed in and what the open drawing lets them do: the header's words and the Place section. */
export function showAccess(state) {
  // Before a drawing is open a user has no role to show (and may place nothing yet).
  const access = state.drawing ? state.access : accessTo(state.me, null);
  const who = byId('signed-in');
  who.textContent = signedInText(access);
  who.hidden = who.textContent === '';
  who.dataset.role = access && !access.operator ? access.role ?? '' : '';
  byId('place-section').hidden = !may(access, 'place-marker');
  // The map's Place button too (place-control.js), when the map has one.
  const place = document.getElementById('place-button');
  if (place) place.closest('.place-control').hidden = !may(access, 'place-marker');
}
