// A marker's comments in its popup: GET .../markers/N/comments (oldest first), each as who wrote it, when, and its
// text (as text: nothing a user typed runs in the page); a small form that POSTs a new one when the role may comment
// on the marker. When the comments cannot be read, the popup shows no comments section.
import { drawingPath, json } from './api.js';
import { button, element } from './dom.js';
import { commentByline } from './history-text.js';
import { failure, say } from './messages.js';

/** One comment as a list item: its byline and its text. */
function commentItem(comment) {
  const li = element('li', undefined, 'comment');
  li.dataset.id = String(comment.id);
  li.append(element('span', commentByline(comment), 'comment-by'), element('p', String(comment.text ?? ''), 'comment-text'));
  return li;
}

/** The form that adds a comment to marker `number` (`path` its comments) and lists it in `list`. */
function commentForm(number, path, list) {
  const form = element('div', undefined, 'comment-form');
  const id = `comment-${number}`;
  const label = element('label', 'Add a comment');
  label.htmlFor = id;
  const text = element('textarea');
  text.id = id;
  text.rows = 2;
  const add = button('Add comment', async () => {
    const typed = text.value.trim();
    if (!typed) { say(`Write the comment on marker ${number} first.`, true); return; }
    add.disabled = true;
    try {
      const comment = await json(path, { method: 'POST', body: { text: typed } });
      list.append(commentItem(comment));
      text.value = '';
      say(`Marker ${number}: comment added.`);
    } catch (error) {
      failure(`Marker ${number}: comment not added`, error);
    } finally {
      add.disabled = false;
    }
  }, 'add-comment');
  const buttons = element('div', undefined, 'buttons');
  buttons.append(add);
  form.append(label, text, buttons);
  return form;
}

/**
 * The comments section of marker `number`'s popup, filled in place when its comments arrive (hidden until then);
 * with the form when `mayComment`.
 */
export function commentsSection(state, number, mayComment) {
  const section = element('section', undefined, 'comments');
  section.hidden = true;
  const list = element('ol', undefined, 'comment-list');
  section.append(element('h4', 'Comments'), list);
  const path = `${drawingPath(state.drawing.name)}/markers/${number}/comments`;
  json(path).then((comments) => {
    list.replaceChildren(...(Array.isArray(comments) ? comments : []).map(commentItem));
    if (mayComment) section.append(commentForm(number, path, list));
    section.hidden = false;
    section.dataset.loaded = 'true';
  }, () => { section.dataset.loaded = 'unavailable'; });
  return section;
}
