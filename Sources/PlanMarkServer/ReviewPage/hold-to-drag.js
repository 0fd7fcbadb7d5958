// Moving a pin with a finger: a long press (HOLD_MS without moving) lifts the pin, which then follows the finger and is
// dropped where the finger leaves the screen. A touch that moves before that pans the sheet as usual, so a pin is never
// dragged by a finger that only meant to pan. A mouse drags a pin at once, as Leaflet's own dragging does; on a touch
// screen (`(pointer: coarse)`) Leaflet's dragging is off and this does it.
// Pointer Events only (touch, from any browser that has them); Leaflet's public API for the map and the pin.
// The pin's element says `data-lifted="true"` while it is lifted (for scripts and the browser test).

/** How long a finger rests on a pin before it lifts, in milliseconds (as a long press on a phone). */
export const HOLD_MS = 500;
/** How far a finger may wander, in CSS pixels, during the press and still lift the pin. */
const SLOP = 10;

/** Whether the device's main pointer is a finger: its pins move by a long press, not at once. */
export function touchFirst() { return window.matchMedia('(pointer: coarse)').matches; }

/**
 * Lets `layer` (a pin on `map`) be moved by a long press, when `allowed()` says so at the press. `dropped(from)` is told
 * when the finger leaves the screen (`from`: the latLng the pin left); `lifted()` when it lifts.
 * - Complexity: O(1) a pointer event.
 */
export function holdToDrag(map, layer, { allowed, lifted = () => {}, dropped }) {
  const el = layer.getElement();
  if (!el) return;
  el.addEventListener('pointerdown', (down) => {
    if (down.pointerType !== 'touch' || !allowed()) return;
    let from = null;
    const end = () => {
      clearTimeout(timer);
      document.removeEventListener('pointermove', move, true);
      document.removeEventListener('pointerup', up, true);
      document.removeEventListener('pointercancel', cancel, true);
    };
    const move = (event) => {
      if (event.pointerId !== down.pointerId) return;
      if (!from) {
        // Still pressing: moving away is a pan, not a lift.
        if (Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) > SLOP) end();
        return;
      }
      event.preventDefault();
      layer.setLatLng(map.containerPointToLatLng(map.mouseEventToContainerPoint(event)));
    };
    /** The finger left the screen (`drop`: the pin stays where it is now) or the system took the touch (it goes back). */
    const finish = (event, drop) => {
      if (event.pointerId !== down.pointerId) return;
      end();
      if (!from) return;
      delete el.dataset.lifted;
      map.dragging.enable();
      if (drop) dropped(from);
      else layer.setLatLng(from);
    };
    const up = (event) => finish(event, true);
    const cancel = (event) => finish(event, false);
    const timer = setTimeout(() => {
      from = layer.getLatLng();
      // The sheet stops following this finger; the pin does.
      map.dragging.disable();
      el.dataset.lifted = 'true';
      lifted();
    }, HOLD_MS);
    document.addEventListener('pointermove', move, true);
    document.addEventListener('pointerup', up, true);
    document.addEventListener('pointercancel', cancel, true);
  });
}
