// The drawing's regions on the map: the allowed area dashed green, the rooms outlined blue with their id
// and name on hover.
import { L } from './leaflet-global.js';
import { element } from './dom.js';
import { roomLabel, splitRegions } from './filters.js';
import { toLatLng } from './map.js';

/** Draws `regions` (GeoJSON from GET /drawings/NAME/regions, in image pixels) on the open drawing's map. */
export function showRegions(state, regions) {
  const { allowed, rooms } = splitRegions(regions);
  const coordsToLatLng = (c) => toLatLng(state, c[0], c[1]);
  L.geoJSON(allowed, {
    coordsToLatLng, interactive: false,
    style: () => ({ color: '#059669', weight: 2, dashArray: '8 5', fill: false }),
  }).addTo(state.map);
  L.geoJSON(rooms, {
    coordsToLatLng,
    style: () => ({ color: '#2563eb', weight: 1.5, fillColor: '#2563eb', fillOpacity: 0.05 }),
    onEachFeature: (feature, layer) => {
      // A text node, not HTML: Leaflet would put a string tooltip in as markup.
      layer.bindTooltip(element('span', roomLabel(feature)), { sticky: true, className: 'room-label' });
    },
  }).addTo(state.map);
}
