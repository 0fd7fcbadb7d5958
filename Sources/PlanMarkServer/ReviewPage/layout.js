// The panel (drawings, legend, punch list, placing) beside the sheet, or, on a narrow screen (below 768 px, a
// phone), a drawer over the sheet that the header's "List" button opens and closes; the sheet then fills the screen.
// A closed drawer is inert: its controls take no focus and no taps.
import { byId } from './dom.js';

/** Narrow screens, where the panel is a drawer. */
export const NARROW = '(max-width: 767px)';

/** Sets the layout up; the returned `close()` closes the drawer (after a row of the list was chosen). */
export function setUpLayout(state) {
  const side = byId('side');
  const button = byId('panel-button');
  const narrow = window.matchMedia(NARROW);
  function show() {
    const isNarrow = narrow.matches;
    const open = isNarrow && state.panelOpen;
    side.classList.toggle('drawer-open', open);
    side.inert = isNarrow && !open;
    button.hidden = !isNarrow;
    button.setAttribute('aria-expanded', String(open));
    button.textContent = open ? 'Close list' : 'List';
    // The sheet's size may have changed (the panel left or came back beside it).
    state.map?.invalidateSize();
  }
  function setOpen(open) {
    state.panelOpen = open;
    show();
  }
  button.addEventListener('click', () => {
    setOpen(!state.panelOpen);
    if (state.panelOpen) byId('list-search').focus();
  });
  side.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && narrow.matches && state.panelOpen) {
      setOpen(false);
      button.focus();
    }
  });
  narrow.addEventListener('change', show);
  show();
  return { close: () => { if (state.panelOpen) setOpen(false); } };
}
