// The focus around a pin's popup, for the keyboard and screen readers: when the popup opens, the focus moves into it
// (onto its heading, which names the marker and its status); Escape closes it; and when it closes with the focus
// inside it, the focus goes back to where the reader came from: the list's row of that marker when they chose the row
// (and it can take the focus), else the marker's pin. The popup is a non-modal dialog named by its heading.

/** The element of the popup content's heading of marker `number` (popup.js gives it this id). */
export function popupHeadingId(number) {
  return `popup-title-${number}`;
}

/** Whether `el` can take the focus now: on the page, shown, and not in an inert part (a closed drawer). */
function focusable(el) {
  return !!el && el.isConnected && el.getClientRects().length > 0 && !el.closest('[inert]');
}

/**
 * Where the focus goes back to when marker `number`'s popup closes: its row of the list when `fromRow` and the row
 * can take the focus (the list is rebuilt when a marker changes: the row is found anew), else its pin.
 */
function returnTarget(layer, number, fromRow) {
  const row = fromRow ? document.querySelector(`#punch-list .row[data-number="${number}"]`) : null;
  return focusable(row) ? row : layer.getElement();
}

/** Popup containers that already close on Escape (Leaflet keeps a popup's container when it opens it again). */
const wired = new WeakSet();

/** Follows the focus for the popup of `layer` (a pin, marker `number()`: a function, as the number is read when used). */
export function followPopupFocus(layer, number) {
  let fromRow = false;
  layer.on('popupopen', () => {
    const popup = layer.getPopup();
    const container = popup?.getElement();
    if (!container) return;
    const n = number();
    fromRow = !!document.activeElement?.closest?.('#punch-list .row');
    container.setAttribute('role', 'dialog');
    container.setAttribute('aria-labelledby', popupHeadingId(n));
    const close = container.querySelector('.leaflet-popup-close-button');
    if (close) {
      close.setAttribute('role', 'button');
      close.setAttribute('aria-label', `Close marker ${n}`);
    }
    if (!wired.has(container)) {
      wired.add(container);
      container.addEventListener('keydown', (event) => {
        if (event.key !== 'Escape' || event.defaultPrevented) return;
        event.preventDefault();
        event.stopPropagation();
        layer.closePopup();
      });
    }
    // preventScroll: the map's container must not scroll under Leaflet (it pans the popup into view itself).
    container.querySelector(`#${popupHeadingId(n)}`)?.focus({ preventScroll: true });
  });
  layer.on('popupclose', () => {
    const container = layer.getPopup()?.getElement();
    const active = document.activeElement;
    // Only a focus the closing popup had (or lost with it): a click on another pin or the sheet keeps its own.
    if (active && active !== document.body && !container?.contains(active)) return;
    returnTarget(layer, number(), fromRow)?.focus({ preventScroll: true });
  });
}
