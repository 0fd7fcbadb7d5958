// The page's addresses: `#/NAME` opens drawing NAME, `#/NAME/7` opens it at marker 7 with its popup; either may end
// with `?` and the punch list's filter (list-filter.js filterQuery), so a link reproduces the view.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/routes.test.mjs runs it under node).

/**
 * The drawing name, marker number and filter query of an address's hash, null when it names no drawing (the number
 * is null without one, the query '' without one).
 */
export function parseHash(hash) {
  const match = /^#\/([^/?]+)(?:\/(\d+))?(?:\?(.*))?$/.exec(hash);
  if (!match) return null;
  return { name: decodeURIComponent(match[1]), number: match[2] ? Number(match[2]) : null, query: match[3] || '' };
}

/** The hash of a drawing, or of one of its markers, with a filter query when one is given. */
export function drawingHash(name, number, query) {
  return '#/' + encodeURIComponent(name) + (number === undefined || number === null ? '' : `/${number}`) + (query ? `?${query}` : '');
}
