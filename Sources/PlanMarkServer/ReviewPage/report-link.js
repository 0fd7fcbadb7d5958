// "Report of this list (PDF)": the punch-list report of the open drawing for the list's filter
// (GET /drawings/NAME/report.pdf with the filter as the API's own query), fetched with the token (a plain link
// cannot send the Authorization header) and handed to the browser as a download.
import { drawingPath, request, answerError } from './api.js';
import { byId, element } from './dom.js';
import { failure, say } from './messages.js';
import { filterQuery } from './list-filter.js';
import { sizeText } from './offline-caches.js';

/** Sets up the report button of the punch list. */
export function setUpReportLink(state) {
  const button = byId('report-button');
  button.addEventListener('click', async () => {
    if (!state.drawing) return;
    const name = state.drawing.name;
    const query = filterQuery(state.visible, state.conditions);
    button.disabled = true;
    say(`Making the report of drawing "${name}"...`);
    try {
      const response = await request(`${drawingPath(name)}/report.pdf${query ? `?${query}` : ''}`);
      if (!response.ok) throw await answerError(response);
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = element('a');
      link.href = url;
      link.download = `${name} punch list.pdf`;
      document.body.append(link);
      link.click();
      link.remove();
      // The download has its own copy once it started.
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      say(`The report of drawing "${name}" (${sizeText(blob.size)}) is downloaded.`);
    } catch (error) {
      failure('The report was not made', error);
    } finally {
      button.disabled = false;
    }
  });
}
