// One process for several unit test files (scripts/test.mjs): each file is required in turn, so its tests
// register with node:test and run in that order once this script has loaded them all. Usage:
// node --test-reporter=spec scripts/lib/test-batch.cjs out/test/unit/a.test.js out/test/unit/b.test.js
'use strict';
const path = require('node:path');

for (const file of process.argv.slice(2)) require(path.resolve(file));
