// The PlanMark review page: drawing list, the tiled sheet with rooms and the allowed area, numbered pins
// by status, placing, editing, moving and resolving markers, live updates from the service's event stream.
// This module only starts it: when Leaflet (a classic script, Debian's libjs-leaflet) did not load, it
// says what to install; otherwise it reads the service's vocabulary (vocabulary.js), loads the page's parts (review.js)
// and starts them.
import { byId, element } from './dom.js';
import { failure, say } from './messages.js';
import { loadVocabulary } from './vocabulary.js';

if (typeof window.L === 'undefined') {
  const notice = element('p', "Leaflet's files are not served, so the sheet cannot be shown. Install Debian's libjs-leaflet "
    + '(apt-get install libjs-leaflet) or start the server with --leaflet-dir pointing at a folder with leaflet.js and leaflet.css.', 'notice');
  byId('map').replaceChildren(notice);
  say('Leaflet is missing on the server.', true);
} else {
  // The workflow's words and colours come from the service before anything is drawn (vocabulary.js).
  loadVocabulary()
    .then(() => import('./review.js'))
    .then((review) => review.start(), (error) => failure('The page did not load', error));
}
