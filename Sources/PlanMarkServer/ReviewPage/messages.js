// The page's messages: one line in the aria-live region at the bottom (screen readers read it out).
import { ApiError } from './api.js';
import { byId } from './dom.js';
import { reasonText } from './workflow.js';

/** Shows `text`; `error` colours it as a problem. */
export function say(text, error = false) {
  const box = byId('messages');
  box.textContent = text;
  box.classList.toggle('error', error);
}

/** Says what failed (`prefix`) and why: the service's reason in words, or the error's message. */
export function failure(prefix, error) {
  if (error instanceof ApiError) say(`${prefix}: ${reasonText(error.code, error.message)}`, true);
  else say(`${prefix}: ${error.message || error}`, true);
}
