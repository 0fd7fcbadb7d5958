// The vocabulary the service answers (GET /vocabulary), written out by hand from docs/punch-items.md (the workflow) and
// docs/review-page.md (the signs), and handed to workflow.js before any test runs: a test file imports this module
// first. The service's own answer is checked against the same table in Swift (VocabularyEndpointTests).
import { setVocabulary } from '../../Sources/PlanMarkServer/ReviewPage/workflow.js';

const change = (to, action, { needsReason = false, advances = false } = {}) => ({ to, action, needsReason, advances });

export const vocabulary = {
  statuses: [
    {
      name: 'open', title: 'Open', glyph: '○', colour: '#0072B2', ink: '#FFFFFF', active: true,
      next: [change('in-progress', 'Start work', { advances: true }), change('ready', 'Ready for inspection', { advances: true }),
        change('closed', 'Resolve'), change('void', 'Void')],
    },
    {
      name: 'in-progress', title: 'In progress', glyph: '◐', colour: '#AA4499', ink: '#FFFFFF', active: true,
      next: [change('open', 'Reopen'), change('ready', 'Ready for inspection', { advances: true }), change('closed', 'Resolve'),
        change('void', 'Void')],
    },
    {
      name: 'ready', title: 'Ready for inspection', glyph: '●', colour: '#009E73', ink: '#FFFFFF', active: true,
      next: [change('closed', 'Resolve'), change('open', 'Reject (reopen)', { needsReason: true }), change('void', 'Void')],
    },
    { name: 'closed', title: 'Closed', glyph: '✓', colour: '#4B5563', ink: '#FFFFFF', active: false, next: [change('open', 'Reopen')] },
    { name: 'void', title: 'Void', glyph: '✕', colour: '#A8AEB8', ink: '#111827', active: false, next: [change('open', 'Reopen')] },
  ],
  priorities: ['low', 'normal', 'high', 'critical'],
  overdue: { glyph: '!', colour: '#E11D48' },
  formerly: { resolved: 'closed' },
};

setVocabulary(vocabulary);
