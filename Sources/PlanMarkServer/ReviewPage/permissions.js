// What the signed-in user may do on the open drawing, so the page offers only the buttons their role may use.
// The role table is not copied here: GET /me gives each of the user's projects with `permissions`, each action's
// code to "always", "on-their-markers" or "never" (the service's TeamPermissions.swift, docs/team.md); the
// operator ("operator": true) may do everything. The service still checks every request.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/permissions.test.mjs runs it under node).
import { TRANSITIONS, change } from './workflow.js';

/**
 * The access of `me` (GET /me's answer) to a drawing of project `project`: `{ operator: true }` for the operator;
 * `{ name, company, role, permissions }` for a user, with their role in that project (`role` null and no
 * permission when they have none there); null when `me` is not known (then the page offers everything and the
 * service decides).
 */
export function accessTo(me, project) {
  if (!me) return null;
  if (me.operator === true) return { operator: true };
  const entry = (me.projects || []).find((p) => p.name === project);
  return {
    operator: false, name: me.name, company: me.company ?? null,
    role: entry ? entry.role : null, permissions: entry && entry.permissions ? entry.permissions : {},
  };
}

/**
 * The action a status change from `from` to `to` is (TeamAction.statusChange): work on the item ("advance-status",
 * the vocabulary's `advances`: open -> in-progress -> ready) or an inspection ("verify-status": anything else).
 */
export function statusAction(from, to) {
  return change(from, to)?.advances ? 'advance-status' : 'verify-status';
}

/** Whether `marker` is the user's: its assignee is their name or their company, in any case. */
export function isTheirs(access, marker) {
  if (!access || !marker || typeof marker.assignee !== 'string') return false;
  const assignee = marker.assignee.toLowerCase();
  return [access.name, access.company].some((n) => typeof n === 'string' && n.toLowerCase() === assignee);
}

/**
 * Whether `access` may take `action` (its code, e.g. "edit-marker") on `marker` (null for an action on no
 * marker, such as placing one: there "on-their-markers" is no). An action the answer does not name is never.
 */
export function may(access, action, marker = null) {
  if (access === null) return true;
  if (access.operator) return true;
  const permission = Object.prototype.hasOwnProperty.call(access.permissions, action) ? access.permissions[action] : 'never';
  if (permission === 'always') return true;
  return permission === 'on-their-markers' && isTheirs(access, marker);
}

/**
 * What the popup of `marker` offers: the statuses it may move to (in the order of the workflow), and whether its
 * fields may be edited (and the pin dragged), it may be deleted, and commented on.
 */
export function markerActions(access, marker) {
  const next = Object.prototype.hasOwnProperty.call(TRANSITIONS, marker.status) ? TRANSITIONS[marker.status] : [];
  return {
    statuses: next.filter((to) => may(access, statusAction(marker.status, to), marker)),
    edit: may(access, 'edit-marker', marker),
    remove: may(access, 'delete-marker', marker),
    comment: may(access, 'comment-or-attach', marker),
  };
}

/** Who is signed in, as the header says it: "NAME · ROLE" (just NAME with no role there), "operator", or "". */
export function signedInText(access) {
  if (!access) return '';
  if (access.operator) return 'operator';
  return access.role ? `${access.name} · ${access.role}` : String(access.name ?? '');
}
