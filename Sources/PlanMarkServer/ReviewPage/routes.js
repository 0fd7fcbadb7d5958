// The page's addresses: `#/NAME` opens drawing NAME, `#/NAME/7` opens it at marker 7 with its popup.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/routes.test.mjs runs it under node).

/** The drawing name and marker number of an address's hash, null when it names none (the number is null without one). */
export function parseHash(hash) {
  const match = /^#\/([^/]+)(?:\/(\d+))?$/.exec(hash);
  if (!match) return null;
  return { name: decodeURIComponent(match[1]), number: match[2] ? Number(match[2]) : null };
}

/** The hash of a drawing, or of one of its markers. */
export function drawingHash(name, number) {
  return '#/' + encodeURIComponent(name) + (number === undefined || number === null ? '' : `/${number}`);
}
