// Leaflet, for the page's modules that draw the map. Debian's libjs-leaflet is a classic script that
// defines the global `L`; this is the one place the page reads it. Only modules loaded after app.js has
// seen Leaflet loaded import this one.
export const L = window.L;
