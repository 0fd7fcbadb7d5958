// The service's API from the page: every call sends the token (kept in sessionStorage, never in a URL)
// as a Bearer header; a 401 asks for the token once (one dialog for all calls waiting) and retries.
const KEY = 'planmark-token';
let asking = null;

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
  const dialog = document.getElementById('token-dialog');
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const heading = document.getElementById('token-heading');
  heading.textContent = why || 'This server needs a token';
  asking = new Promise((resolve) => {
    const submit = (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      sessionStorage.setItem(KEY, token);
      input.value = '';
      form.removeEventListener('submit', submit);
      dialog.close();
      document.getElementById('token-button').hidden = false;
      asking = null;
      resolve(token);
    };
    form.addEventListener('submit', submit);
    dialog.showModal();
    input.focus();
  });
  return asking;
}

/** An answer of the service that is not a success: its status and `{"error":{"code","message"}}`. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** fetch() of an API path with the token; JSON `body` is sent as application/json. Asks for the token on 401. */
export async function request(path, { method = 'GET', body, headers = {} } = {}) {
  for (let attempt = 0; ; attempt += 1) {
    const all = { ...headers, ...authHeaders() };
    if (body !== undefined) all['Content-Type'] = 'application/json';
    const response = await fetch(path, {
      method, headers: all, cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 401 && attempt < 5) {
      await askToken(currentToken() ? 'That token was refused: give the right one' : 'This server needs a token');
      continue;
    }
    return response;
  }
}

/** The JSON of a successful answer; throws ApiError otherwise. */
export async function json(path, options) {
  const response = await request(path, options);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, data?.error?.code ?? 'http-' + response.status, data?.error?.message ?? response.statusText);
  }
  return data;
}

/** A blob: URL of an image path fetched with the token (an <img> cannot send the header). */
export async function blobURL(path, signal) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(path, { headers: authHeaders(), signal });
    if (response.status === 401 && attempt < 5) { await askToken('This server needs a token'); continue; }
    if (!response.ok) throw new ApiError(response.status, 'http-' + response.status, path + ': ' + response.status);
    return URL.createObjectURL(await response.blob());
  }
}

/** `/drawings/NAME` with the name percent-encoded. */
export function drawingPath(name) { return '/drawings/' + encodeURIComponent(name); }
