// A marker's comments in its popup: GET .../markers/N/comments (oldest first), each as who wrote it, when, and its
// text (as text: nothing a user typed runs in the page); a small form that POSTs a new one when the role may comment
// on the marker. When the comments cannot be read, the popup shows no comments section.
import { drawingPath, json, resultError } from './api.js';
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

/**
 * Adds `comments` (of the service, by id) to marker `number`'s cached comments, and returns them all, oldest first. The
 * cache outlives a popup rebuilt under the reader (a change of the marker arrived): it shows at once, and a comment
 * this page added is not lost when a reading that began before it was stored arrives after it.
 */
function remember(state, number, comments) {
  const byId = new Map((state.comments.get(number) ?? []).map((c) => [c.id, c]));
  for (const c of comments) byId.set(c.id, c);
  const all = [...byId.values()].sort((a, b) => a.id - b.id);
  state.comments.set(number, all);
  return all;
}

/** Shows `comments` in every comment list of marker `number` on the page (its popup, rebuilt or not). */
function showEverywhere(number, comments) {
  for (const list of document.querySelectorAll(`.popup[data-number="${number}"] .comment-list`)) {
    list.replaceChildren(...comments.map(commentItem));
  }
}

/** The form that adds a comment to marker `number` (`path` its comments) through `edits` (edits.js: the outbox). */
function commentForm(state, number, path, edits) {
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
    const emptied = () => {
      // The popup may have been rebuilt meanwhile: empty whichever box now holds the text.
      for (const box of document.querySelectorAll(`.popup[data-number="${number}"] .comment-form textarea`)) box.value = '';
      text.value = '';
    };
    try {
      const result = await edits.comment(number, typed);
      if (result.outcome === 'stored') {
        showEverywhere(number, remember(state, number, [result.data]));
        emptied();
        say(`Marker ${number}: comment added.`);
      } else if (result.outcome === 'waiting') {
        emptied();
        say(`No network: the comment on marker ${number} is kept on this device (${edits.waitingText()}).`);
      } else {
        failure(`Marker ${number}: comment not added`, resultError(result));
      }
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
 * The comments section of marker `number`'s popup: the comments this page has of it at once (state.comments), then
 * those read from the service (hidden until either, or, without a network, shown with the form alone); with the form
 * when `mayComment`.
 */
export function commentsSection(state, number, mayComment, edits) {
  const section = element('section', undefined, 'comments');
  section.hidden = true;
  const list = element('ol', undefined, 'comment-list');
  section.append(element('h4', 'Comments'), list);
  if (mayComment) section.append(commentForm(state, number, `${drawingPath(state.drawing.name)}/markers/${number}/comments`, edits));
  const show = (comments) => {
    list.replaceChildren(...comments.map(commentItem));
    section.hidden = false;
    section.dataset.loaded = 'true';
  };
  const cached = state.comments.get(number);
  if (cached) show(cached);
  json(`${drawingPath(state.drawing.name)}/markers/${number}/comments`).then((comments) => {
    show(remember(state, number, Array.isArray(comments) ? comments : []));
  }, () => {
    if (cached) return;
    section.dataset.loaded = 'unavailable';
    // Without a network the form still takes a comment (it waits to sync); the ones stored are not known here.
    if (mayComment && !navigator.onLine) {
      list.replaceChildren(element('li', 'Not available without a network.', 'muted'));
      section.hidden = false;
    }
  });
  return section;
}
