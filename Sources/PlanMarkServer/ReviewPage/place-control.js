// A small Leaflet plugin: the map's "Place" button, a mode the reviewer switches on (a click or tap on the sheet then
// places a marker, the cursor a crosshair) and off again (the button, or Escape). Off when the page opens, so an
// ordinary click or tap never makes an item by accident.
//
//   placeControl({ position: 'topright', changed: (on) => {} })   -> an L.Control; `.setPlacing(on)`, `.placing()`
//
// It uses Leaflet's public API only (L.Control.extend, onAdd, DomEvent). The button is a real <button> with
// aria-pressed, so assistive technology reads it as a toggle.
import { L } from './leaflet-global.js';

/** The control: a toggle button in a Leaflet bar. */
export const PlaceControl = L.Control.extend({
  options: {
    position: 'topright',
    // (on) -> void: told when the mode changes.
    changed: () => {},
  },

  onAdd(map) {
    const bar = L.DomUtil.create('div', 'leaflet-bar place-control');
    const button = L.DomUtil.create('button', 'place-button', bar);
    button.type = 'button';
    button.id = 'place-button';
    L.DomEvent.disableClickPropagation(bar);
    L.DomEvent.on(button, 'click', () => this.setPlacing(!this.on));
    this.button = button;
    this.map = map;
    this.escape = (event) => { if (event.key === 'Escape' && this.on) this.setPlacing(false); };
    document.addEventListener('keydown', this.escape);
    this.setPlacing(false);
    return bar;
  },

  onRemove() {
    document.removeEventListener('keydown', this.escape);
  },

  /** Switches the mode on or off. */
  setPlacing(on) {
    this.on = on;
    this.button.setAttribute('aria-pressed', String(on));
    this.button.textContent = on ? 'Placing: tap the sheet' : 'Place';
    this.button.title = on ? 'A click or tap on the sheet places a marker; press again (or Escape) to stop' : 'Place markers by clicking or tapping the sheet';
    this.map.getContainer().classList.toggle('placing', on);
    this.options.changed(on);
  },

  /** Whether the mode is on. */
  placing() { return this.on; },
});

/** The factory, in Leaflet's style: a PlaceControl. */
export function placeControl(options) {
  return new PlaceControl(options);
}
