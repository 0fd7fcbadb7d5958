// The service's API from the page: every call sends the token (signin.js) as a Bearer header; a 401 asks
// for the token (one dialog for all calls waiting) and tries again.
import { askToken, authHeaders, currentToken } from './signin.js';

/** An answer of the service that is not a success: its status and `{"error":{"code","message"}}`. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * fetch() of an API path with the token; JSON `body` is sent as application/json, `raw` (a file, with the caller's
 * Content-Type) as it is; `signal` can stop it. Asks for the token on 401.
 */
export async function request(path, { method = 'GET', body, raw, headers = {}, signal } = {}) {
  for (let attempt = 0; ; attempt += 1) {
    const all = { ...headers, ...authHeaders() };
    if (body !== undefined) all['Content-Type'] = 'application/json';
    const response = await fetch(path, {
      method, headers: all, cache: 'no-store', signal,
      body: raw !== undefined ? raw : body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 401 && attempt < 5) {
      await askToken(currentToken() ? 'That token was refused: give the right one' : 'This server needs a token');
      continue;
    }
    return response;
  }
}

/** The ApiError of an answer that is not a success, from its JSON `data` already read (its error when it has one). */
export function errorOf(response, data, fallbackCode = 'http-' + response.status) {
  const error = data && data.error ? data.error : {};
  return new ApiError(response.status, error.code ?? fallbackCode, error.message ?? response.statusText);
}

/** The ApiError of a write's result (sync.js: `{ status, data }`) that is not a success. */
export function resultError(result) { return errorOf({ status: result.status, statusText: `HTTP ${result.status}` }, result.data); }

/** The ApiError of an answer that is not a success (its JSON error when it has one). */
export async function answerError(response, fallbackCode) {
  return errorOf(response, await response.json().catch(() => null), fallbackCode);
}

/** The JSON of a successful answer; throws ApiError otherwise. */
export async function json(path, options) {
  const response = await request(path, options);
  const data = await response.json().catch(() => null);
  if (!response.ok) throw errorOf(response, data);
  return data;
}

/** The bytes of an image path fetched with the token (an <img> cannot send the header); `signal` can stop it. */
export async function fetchImage(path, signal) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(path, { headers: authHeaders(), signal });
    if (response.status === 401 && attempt < 5) { await askToken('This server needs a token'); continue; }
    if (!response.ok) throw new ApiError(response.status, 'http-' + response.status, path + ': ' + response.status);
    return response.blob();
  }
}

/** `/drawings/NAME` with the name percent-encoded. */
export function drawingPath(name) { return '/drawings/' + encodeURIComponent(name); }
