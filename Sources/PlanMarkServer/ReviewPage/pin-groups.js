// Pin groups: pins that overlap at the map's zoom are drawn as one group showing their count, and a click (or
// Enter) on it spreads them out around it (spiderfies), so every pin can be reached; at the map's highest zoom
// every pin is apart. It is Leaflet.markercluster (Debian's libjs-leaflet.markercluster, a classic script that
// adds L.MarkerClusterGroup to Leaflet) with a radius of one pin, so only pins that touch are grouped. Without
// the plugin (the server does not serve it) the pins go on a plain layer group, each shown apart.
import { L } from './leaflet-global.js';
import { groupLabel } from './group-label.js';

/** A group's icon: Leaflet's div icon as a button named by the `label` option. */
const GroupIcon = L.DivIcon.extend({
  options: { label: '' },

  /** Leaflet's div icon element, with its role and label. */
  createIcon(oldIcon) {
    const element = L.DivIcon.prototype.createIcon.call(this, oldIcon);
    element.setAttribute('role', 'button');
    element.setAttribute('aria-label', this.options.label);
    return element;
  },
});

/** The groups whose pins are spread out now. */
const spreadGroups = new WeakSet();

/** Whether Leaflet.markercluster is loaded. */
export function canGroupPins() { return typeof L.MarkerClusterGroup === 'function'; }

/**
 * The layer the pins of `map` go on (it supports `addLayer`, `removeLayer`, `hasLayer`), not yet added to the
 * map. Options: `pinSize`, a pin's diameter in CSS pixels (pins closer than that are grouped), and
 * `numberOf(pin)`, a pin's marker number (for the group's label).
 */
export function pinGroups(map, { pinSize = 24, numberOf }) {
  if (!canGroupPins()) return L.layerGroup();
  const group = L.markerClusterGroup({
    maxClusterRadius: pinSize,
    disableClusteringAtZoom: map.getMaxZoom(),
    // A click spreads the group out where it is, at every zoom, rather than zooming the sheet.
    zoomToBoundsOnClick: false, spiderfyOnMaxZoom: false, spiderfyOnEveryZoom: true,
    showCoverageOnHover: false,
    // Every pin the filter shows stays in the page, on screen or not (as on a plain layer group).
    removeOutsideVisibleBounds: false,
    iconCreateFunction(cluster) {
      const numbers = cluster.getAllChildMarkers().map(numberOf);
      return new GroupIcon({ className: 'pin-group', html: String(numbers.length), iconSize: [30, 30], label: groupLabel(numbers) });
    },
  });
  // Enter on a group spreads it out and the plugin gives the focus to the map: give it to the group's first pin.
  group.on('spiderfied', (event) => {
    spreadGroups.add(group);
    if (document.activeElement === map.getContainer()) event.markers[0]?.getElement()?.focus();
  });
  group.on('unspiderfied', () => spreadGroups.delete(group));
  return group;
}

/** Whether a group of `layer` (the pins' layer) is spread out now: a click on the sheet then only folds it back. */
export function isSpread(layer) { return spreadGroups.has(layer); }

/**
 * Shows `pin` (a pin on `layer`, the pins' layer) and then calls `shown()`: a pin inside a group is shown by
 * zooming to it or spreading its group out; a pin shown already, or on a plain layer group, at once.
 */
export function showPin(layer, pin, shown) {
  if (canGroupPins() && layer instanceof L.MarkerClusterGroup && layer.hasLayer(pin)) layer.zoomToShowLayer(pin, shown);
  else shown();
}
