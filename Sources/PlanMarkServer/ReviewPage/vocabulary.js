// The service's vocabulary (GET /vocabulary: the statuses, their names, signs, colours and changes; the priorities;
// the overdue flag), read once before the page starts and handed to workflow.js, so the page keeps no copy of the
// workflow. The statuses' colours come the same way, as a style sheet the server makes from the same definition
// (/app/vocabulary.css, linked by index.html). Kept for offline use by the service worker (offline-caches.js).
import { setVocabulary } from './workflow.js';

/** Reads the vocabulary and hands it to workflow.js. */
export async function loadVocabulary() {
  const response = await fetch('/vocabulary', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /vocabulary answered ${response.status}`);
  const vocabulary = await response.json();
  setVocabulary(vocabulary);
  return vocabulary;
}
