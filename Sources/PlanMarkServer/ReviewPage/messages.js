// The page's messages: one line in the aria-live region at the bottom (screen readers read it out).
import { ApiError } from './api.js';
import { byId } from './dom.js';
import { reasonText } from './workflow.js';

/** A message waiting for the reader to pause (sayWhenQuiet), or null. */
let pending = null;

/** Shows `text`; `error` colours it as a problem. A message waiting to be said (sayWhenQuiet) is dropped. */
export function say(text, error = false) {
  clearTimeout(pending);
  pending = null;
  const box = byId('messages');
  box.textContent = text;
  box.classList.toggle('error', error);
}

/** Says what failed (`prefix`) and why: the service's reason in words, or the error's message. */
export function failure(prefix, error) {
  if (error instanceof ApiError) say(`${prefix}: ${reasonText(error.code, error.message)}`, true);
  else say(`${prefix}: ${error.message || error}`, true);
}

/**
 * Says `text` once nothing newer was to be said for `ms` milliseconds (the reader typing in the search, ticking
 * boxes): a screen reader hears the last count once, not one a keystroke. Any message said meanwhile replaces it; the
 * line that shows it already is not said again.
 */
export function sayWhenQuiet(text, ms = 700) {
  clearTimeout(pending);
  pending = setTimeout(() => {
    pending = null;
    if (byId('messages').textContent !== text) say(text);
  }, ms);
}
