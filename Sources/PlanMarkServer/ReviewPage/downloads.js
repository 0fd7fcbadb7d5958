// The punch list's downloads, each for the list's filter (the API's own query) on the open drawing, fetched with the
// token (a plain link cannot send the Authorization header) and handed to the browser as a file:
// "Report of this list (PDF)" (GET /drawings/NAME/report.pdf) and "Download BCF" (GET /drawings/NAME/issues.bcf, BCF 2.1
// for BIM tools, each topic linking back to its marker on this page).
import { drawingPath, request, answerError } from './api.js';
import { byId, element } from './dom.js';
import { failure, say } from './messages.js';
import { filterQuery } from './list-filter.js';
import { sizeText } from './offline-caches.js';

/** The downloads: the button, the file the service makes, the extra query, the file's name and what it is called. */
export const downloads = [
  { button: 'report-button', file: 'report.pdf', extra: () => '', name: (drawing) => `${drawing} punch list.pdf`, what: 'report' },
  {
    button: 'bcf-button', file: 'issues.bcf', extra: (origin) => `baseUrl=${encodeURIComponent(origin)}`,
    name: (drawing) => `${drawing}.bcf`, what: 'BCF file',
  },
];

/** The address of a download for the list's query: the filter's query, then the download's own. */
export function downloadPath(name, download, query, origin) {
  const parts = [query, download.extra(origin)].filter((part) => part);
  return `${drawingPath(name)}/${download.file}${parts.length ? `?${parts.join('&')}` : ''}`;
}

/** Sets up the punch list's download buttons. */
export function setUpDownloads(state) {
  for (const download of downloads) {
    const button = byId(download.button);
    button.addEventListener('click', async () => {
      if (!state.drawing) return;
      const name = state.drawing.name;
      const query = filterQuery(state.visible, state.conditions);
      button.disabled = true;
      say(`Making the ${download.what} of drawing "${name}"...`);
      try {
        const response = await request(downloadPath(name, download, query, location.origin));
        if (!response.ok) throw await answerError(response);
        const blob = await response.blob();
        const url = URL.createObjectURL(blob);
        const link = element('a');
        link.href = url;
        link.download = download.name(name);
        document.body.append(link);
        link.click();
        link.remove();
        // The download has its own copy once it started.
        setTimeout(() => URL.revokeObjectURL(url), 60000);
        say(`The ${download.what} of drawing "${name}" (${sizeText(blob.size)}) is downloaded.`);
      } catch (error) {
        failure(`The ${download.what} was not made`, error);
      } finally {
        button.disabled = false;
      }
    });
  }
}
