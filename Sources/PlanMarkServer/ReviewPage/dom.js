// Small helpers to build the page's elements. Text always goes in as text (textContent), never as HTML,
// so nothing a user typed (a note, a name) runs in the page.

/** The element with id `id`. */
export function byId(id) { return document.getElementById(id); }

/** A new `tag` element with `text` as its text and `className` as its class (both optional). */
export function element(tag, text, className) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  if (className) el.className = className;
  return el;
}

/** A `<button type="button">` with `text` that calls `onClick` when pressed. */
export function button(text, onClick, className) {
  const b = element('button', text, className);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}
