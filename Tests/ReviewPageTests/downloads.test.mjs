// The punch list's downloads: their addresses, worked out by hand from the API's paths (docs/http-api.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downloadPath, downloads } from '../../Sources/PlanMarkServer/ReviewPage/downloads.js';

const [report, bcf] = downloads;

test('the report is asked for with the list filter as the query, and nothing else', () => {
  assert.equal(downloadPath('Level 2', report, 'status=open&assignee=Acme', 'https://pm.example'),
    '/drawings/Level%202/report.pdf?status=open&assignee=Acme');
  assert.equal(downloadPath('Level 2', report, '', 'https://pm.example'), '/drawings/Level%202/report.pdf');
});

test("the BCF file is asked for with the filter and the page's own address, so that each topic links back here", () => {
  assert.equal(downloadPath('Level 2', bcf, 'status=open', 'https://pm.example:8443'),
    '/drawings/Level%202/issues.bcf?status=open&baseUrl=https%3A%2F%2Fpm.example%3A8443');
  assert.equal(downloadPath('A/B', bcf, '', 'http://127.0.0.1:8080'),
    '/drawings/A%2FB/issues.bcf?baseUrl=http%3A%2F%2F127.0.0.1%3A8080');
  assert.equal(bcf.name('Level 2'), 'Level 2.bcf');
});
