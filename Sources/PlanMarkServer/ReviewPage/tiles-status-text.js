// What the header's tiles status says while the server is still making the open drawing's tile pyramid (a big sheet
// just added or revised: `tiles.progress` below 1 in GET /drawings/{name}). Until the pyramid is made each tile is made
// on its own, so zooming in is slower; the status says how far the pyramid is. No DOM: node tests it.

/**
 * The status after the `reading`-th reading of the drawing's `progress` (1: the drawing as the page opened it), or ''
 * (the status hidden): "Preparing sharp tiles… 40 %" while the pyramid is being made, rounded down (never 100 % before
 * it is made). Hidden once it is made (1), when the server says nothing (no tiles, an older server), and at the first
 * reading of 0: a sheet too small for the background has its whole pyramid made by its first tile request (about a
 * second; until then `progress` is 0), so only a reading still below 1 after that, or one already above 0 (a big
 * sheet's pyramid under way), means the sheet is a big one being prepared.
 */
export function tilesStatusText(progress, reading = 2) {
  if (typeof progress !== 'number' || !Number.isFinite(progress) || progress >= 1) return '';
  if (reading <= 1 && progress <= 0) return '';
  const percent = Math.min(99, Math.max(0, Math.floor(progress * 100)));
  return `Preparing sharp tiles… ${percent}\u00a0%`;
}
