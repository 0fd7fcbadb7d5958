// index.html preloads every module the page imports (app.js and what it imports, statically or with import()), and
// nothing else: the list is worked out here by following the modules' import statements.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const folder = new URL('../../Sources/PlanMarkServer/ReviewPage/', import.meta.url);
const read = (name) => readFileSync(new URL(name, folder), 'utf8');

test("index.html preloads exactly the modules app.js reaches", () => {
  const reached = new Set();
  const todo = ['app.js'];
  while (todo.length > 0) {
    const name = todo.pop();
    if (reached.has(name)) continue;
    reached.add(name);
    for (const match of read(name).matchAll(/(?:from|import\()\s*'\.\/([\w-]+\.js)'/g)) todo.push(match[1]);
  }
  reached.delete('app.js');
  const preloaded = [...read('index.html').matchAll(/<link rel="modulepreload" href="\/app\/([\w-]+\.js)">/g)].map((m) => m[1]);
  assert.equal(new Set(preloaded).size, preloaded.length, 'a module preloaded twice');
  assert.deepEqual([...preloaded].sort(), [...reached].sort());
  assert.ok(reached.size > 30, `only ${reached.size} modules reached: the import pattern no longer matches`);
});
