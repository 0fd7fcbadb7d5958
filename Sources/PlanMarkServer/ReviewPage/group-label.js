// The words of a pin group (pins that overlap, drawn as one counted group: pin-groups.js), for assistive
// technology. Plain logic: no page, no Leaflet (Tests/ReviewPageTests/group-label.test.mjs runs it under node).

/** How many of a group's numbers its label names; the rest are counted. */
export const NAMED_NUMBERS = 10;

/**
 * The label of a group of pins with these marker numbers: "3 markers: 4, 5, 6", in ascending order; past
 * `NAMED_NUMBERS` numbers, the first ones and how many more ("40 markers: 1, 2, ..., 10 and 30 more").
 */
export function groupLabel(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  const named = sorted.slice(0, NAMED_NUMBERS).join(', ');
  const more = sorted.length - NAMED_NUMBERS;
  return `${sorted.length} markers: ${named}${more > 0 ? ` and ${more} more` : ''}`;
}
