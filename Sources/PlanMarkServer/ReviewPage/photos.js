// A marker's photos in its popup: a thumbnail of each image attached to it (GET .../attachments), which opens the
// photo full size, and, for a role that may attach, "Add a photo": a file field that on a phone opens the camera
// (`capture="environment"`) and sends the file as it is (POST .../attachments, the service sniffs and bounds it).
// Images are fetched with the token into `blob:` URLs (an <img> cannot send the header).
import { drawingPath, fetchImage, json, resultError } from './api.js';
import { element } from './dom.js';
import { say } from './messages.js';

/**
 * The photos section of marker `number`'s popup; `mayAttach`: the signed-in user may attach to it (through `edits`,
 * edits.js: the outbox, so a photo taken without a network waits on the device and goes when it returns).
 */
export function photosSection(state, number, mayAttach, edits) {
  const box = element('div', undefined, 'photos');
  box.append(element('h4', 'Photos'));
  const list = element('ul', undefined, 'photo-list');
  box.append(list);
  const path = `${drawingPath(state.drawing.name)}/markers/${number}/attachments`;

  /** Lists the marker's images as thumbnails, oldest first. */
  async function load() {
    delete list.dataset.loaded;
    try {
      const answer = await json(path);
      const images = answer.attachments.filter((attachment) => String(attachment.contentType).startsWith('image/'));
      const items = [];
      for (const attachment of images) {
        const url = URL.createObjectURL(await fetchImage(`${path}/${attachment.id}`));
        const link = element('a');
        link.href = url;
        link.target = '_blank';
        link.rel = 'noopener';
        const img = element('img', undefined, 'thumb');
        img.src = url;
        img.alt = attachment.caption ? `Photo: ${attachment.caption}` : `Photo ${attachment.id} of marker ${number}, full size`;
        link.append(img);
        const item = element('li');
        item.dataset.id = String(attachment.id);
        item.append(link);
        items.push(item);
      }
      list.replaceChildren(...(items.length ? items : [element('li', 'none yet', 'muted')]));
    } catch {
      list.replaceChildren(element('li', 'photos unavailable'));
    }
    list.dataset.loaded = 'true';
  }

  if (mayAttach) {
    const id = `photo-${number}`;
    const label = element('label', 'Add a photo');
    label.htmlFor = id;
    const input = element('input');
    input.type = 'file';
    input.accept = 'image/*';
    input.setAttribute('capture', 'environment');
    input.id = id;
    input.addEventListener('change', async () => {
      const file = input.files && input.files[0];
      if (!file) return;
      const result = await edits.attach(number, file);
      if (result.outcome === 'stored') {
        say(`Marker ${number}: photo attached.`);
        input.value = '';
        load();
      } else if (result.outcome === 'waiting') {
        input.value = '';
        say(`No network: the photo for marker ${number} is kept on this device (${edits.waitingText()}).`);
      } else {
        say(`Marker ${number}: the photo was not attached: ${resultError(result).message}.`, true);
      }
    });
    box.append(label, input);
  }
  load();
  return box;
}
