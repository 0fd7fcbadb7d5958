// Signing in: the token this tab sends, kept in sessionStorage (this tab only, gone when it closes) and
// never in a URL; the dialog that asks for it (one dialog however many calls wait); "Change token"; who wants to
// know when a token was given (signed-in.js reads GET /me again).
import { byId } from './dom.js';

const KEY = 'planmark-token';
let asking = null; // the dialog being shown: one promise for every call that waits for it
const given = []; // the callbacks told when a token is given

/** Calls `callback()` each time a token is given in the dialog (after the calls that waited for it go on). */
export function onTokenGiven(callback) { given.push(callback); }

/** The token this tab uses, or null. */
export function currentToken() { return sessionStorage.getItem(KEY); }

/** Headers carrying the token, if there is one. */
export function authHeaders() {
  const token = currentToken();
  return token ? { Authorization: 'Bearer ' + token } : {};
}

/** Shows the token dialog; resolves once a token has been given (one dialog however many calls wait). */
export function askToken(why) {
  if (asking) return asking;
  const dialog = byId('token-dialog');
  const form = byId('token-form');
  const input = byId('token-input');
  byId('token-heading').textContent = why || 'This server needs a token';
  asking = new Promise((resolve) => {
    const submit = (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      sessionStorage.setItem(KEY, token);
      input.value = '';
      form.removeEventListener('submit', submit);
      dialog.close();
      byId('token-button').hidden = false;
      asking = null;
      resolve(token);
      for (const callback of given) callback();
    };
    form.addEventListener('submit', submit);
    dialog.showModal();
    input.focus();
  });
  return asking;
}

/** The "Change token" button: shown once the tab has a token; it asks for another and reloads the page. */
export function setUpTokenButton() {
  const tokenButton = byId('token-button');
  tokenButton.hidden = !currentToken();
  tokenButton.addEventListener('click', () => askToken('Give another token').then(() => location.reload()));
}
