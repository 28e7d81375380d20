// The least a status line relay can do, for `npm run bench` to compare with (never installed, never
// shipped): read Claude Code's JSON on stdin, write it to the project's record file and rename it into
// place, print a line. It refuses no link and checks nothing the real relay checks
// (src/cli/status-line.ts): its ratio to `node -e 0` is how near Node's start-up a status line can be.
// It prints as the relay does, with one synchronous write to the descriptor (`process.stdout` would load
// Node's stream modules, about 2 ms here), and records the time as a number (Date's ISO text maps the
// time-zone data in: the relay writes that text from arithmetic).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const dir = path.join(input.workspace.project_dir, '.claude', 'session-ledger');
fs.mkdirSync(dir, { recursive: true });
const file = path.join(dir, `statusline.${input.session_id}.json`);
fs.writeFileSync(`${file}.tmp`, `${JSON.stringify({ version: 1, receivedAt: Date.now(), input })}\n`);
fs.renameSync(`${file}.tmp`, file);
const w = input.context_window;
fs.writeSync(1, `ctx ${w.used_percentage}% of ${w.context_window_size}\n`);
