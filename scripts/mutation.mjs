// Mutation testing of the core's rules, readers, facts, guard, checkpoint, secrets and writes.
//
// Usage: npm run test:mutation -- [--area rules,readers,...] [--file <path part>] [--jobs 2]
//        [--timeout 60] [--list] [--report]
//   --area     which parts (default all): rules readers facts guard checkpoint secrets writes
//   --file     only source files whose path contains this text
//   --jobs     mutants tried at once (default 2; each runs its test files one after another, niced)
//   --timeout  seconds one test file may run under a mutant; longer counts as killed (a hang)
//   --sample   scale the share of mutants tried (default 1: the rates in RATES below); --all tries every one
//   --list     print the mutants and how many test files each would run, run nothing
//   --report   print the score and survivors of the results in .mutation/ without running anything
//
// What it does: builds out/ (`node scripts/build.mjs --tests`), runs every test file that imports
// one of the mutated modules once unmutated (a file that fails there is left out and named), then
// for each mutant: parses the TypeScript source with the TypeScript compiler, changes one node,
// transpiles that one file with esbuild as the test build does, puts it in a copy of out/, and runs
// only the compiled test files that import the module (directly or through others), fastest first,
// stopping at the first that fails. Results go to .mutation/results-<area>.json; a run resumes:
// mutants killed before are not tried again (--fresh tries all), survivors are.
//
// The mutants are the one-line bugs a real change introduces: a comparison's boundary moved
// (`<` ↔ `<=`, `>` ↔ `>=`), an equality negated, one side of `&&` / `||` dropped, a `!` removed,
// a limit's number changed (a literal compared against, or a named constant / facts-table value),
// one entry removed from a table (alias and pattern tables, the facts' arrays), one alternative
// removed from a table's regular expression, and a call statement removed (an fsync, a rename, a
// check pushed).
import { execFileSync } from 'node:child_process';
import { runGroup } from './lib/claude-code.mjs';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, SourceMap } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ts = require('typescript');
const esbuild = require('esbuild');
const WORK = path.join(REPO, '.mutation');

// ---------------------------------------------------------------------------------------------
// Arguments

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[i + 1] : dflt;
};
const flag = (name) => argv.includes(`--${name}`);
const JOBS = Math.max(1, Number(opt('jobs', '2')) || 2);
const TIMEOUT_MS = (Number(opt('timeout', '60')) || 60) * 1000;
const ONLY_FILE = opt('file', '');
/**
 * The share of each operator's mutants tried by default (`--sample <factor>` scales them, `--all`
 * tries every one): the issue's classes (a boundary or limit moved, a table entry or a call
 * removed) more densely than the rest, so a whole run stays near 550 mutants.
 */
const RATES = { boundary: 0.5, limit: 0.3, 'remove-entry': 0.25, 'remove-call': 0.25, other: 0.15 };

// ---------------------------------------------------------------------------------------------
// The parts under test

function tsIn(dir, test = () => true) {
  const abs = path.join(REPO, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return tsIn(rel, test);
    return e.isFile() && e.name.endsWith('.ts') && test(e.name, rel) ? [rel] : [];
  });
}

const AREAS = {
  rules: () => [...tsIn('src/core/systems', (n) => n === 'rules.ts'), ...tsIn('src/core/rules')],
  readers: () => [...tsIn('src/core/systems', (n) => n.startsWith('reader')), 'src/core/markdown/sections.ts'],
  facts: () => tsIn('src/core/systems', (n) => /facts/.test(n)),
  guard: () => ['src/core/hooks/guard.ts'],
  checkpoint: () => tsIn('src/core/checkpoint'),
  secrets: () => ['src/core/secrets/secrets.ts'],
  writes: () => [
    'src/core/files/atomic.ts',
    ...tsIn('src/core/systems', (n) => /^(?:rotate-log|compact-state)\.ts$/.test(n)),
  ],
};
const areaNames = (opt('area', '') || Object.keys(AREAS).join(',')).split(',').filter(Boolean);
for (const a of areaNames) if (!AREAS[a]) throw new Error(`unknown area ${a}; known: ${Object.keys(AREAS).join(' ')}`);

// ---------------------------------------------------------------------------------------------
// Mutants

/**
 * The mutants of one source file: { id, file, line, op, from, to, start, end }. `start`/`end` are
 * offsets in the source text, replaced by `to`.
 */
/** The source texts as read when the mutants were made: a run does not see later edits of the worktree. */
const SOURCES = new Map();

function mutantsOf(file) {
  const text = readFileSync(path.join(REPO, file), 'utf8');
  SOURCES.set(file, text);
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = [];
  const add = (node, op, to, start = node.getStart(sf), end = node.getEnd()) => {
    const from = text.slice(start, end);
    if (from === to) return;
    const line = sf.getLineAndCharacterOfPosition(start).line + 1;
    out.push({ file, line, op, from, to, start, end });
  };
  const K = ts.SyntaxKind;
  const boundary = {
    [K.LessThanToken]: '<=',
    [K.LessThanEqualsToken]: '<',
    [K.GreaterThanToken]: '>=',
    [K.GreaterThanEqualsToken]: '>',
  };
  const negate = { [K.EqualsEqualsEqualsToken]: '!==', [K.ExclamationEqualsEqualsToken]: '===' };
  const comparison = new Set([
    K.LessThanToken,
    K.LessThanEqualsToken,
    K.GreaterThanToken,
    K.GreaterThanEqualsToken,
    K.EqualsEqualsEqualsToken,
    K.ExclamationEqualsEqualsToken,
  ]);
  const isFacts = /facts/.test(path.basename(file));

  /** True when `node` sits in a top-level declaration (a table), not inside a function. */
  const inTable = (node) => {
    for (let p = node.parent; p; p = p.parent) {
      if (ts.isFunctionLike(p)) return false;
      if (ts.isVariableStatement(p)) return p.parent === sf;
    }
    return false;
  };
  /** Inside a message (`t('…', …)`, `new Error(…)`): its words and numbers are not behaviour under test here. */
  const inMessage = (node) => {
    for (let p = node.parent; p; p = p.parent) {
      if (
        (ts.isCallExpression(p) || ts.isNewExpression(p)) &&
        /^(?:t|Error|WriteRefused|format)$/.test(p.expression.getText(sf))
      )
        return true;
      if (ts.isFunctionLike(p)) return false;
    }
    return false;
  };

  /** A decision's condition: of an `if`, a `?:`, a loop, a `return`, a `!`, or a boolean chain inside one. */
  const isCondition = (node) => {
    let n = node;
    while (
      ts.isParenthesizedExpression(n.parent) ||
      (ts.isBinaryExpression(n.parent) &&
        [K.AmpersandAmpersandToken, K.BarBarToken].includes(n.parent.operatorToken.kind))
    )
      n = n.parent;
    const p = n.parent;
    return (
      (ts.isIfStatement(p) && p.expression === n) ||
      (ts.isConditionalExpression(p) && p.condition === n) ||
      ((ts.isWhileStatement(p) || ts.isDoStatement(p) || ts.isForStatement(p)) && p.expression !== undefined) ||
      ts.isReturnStatement(p) ||
      (ts.isPrefixUnaryExpression(p) && p.operator === K.ExclamationToken) ||
      (ts.isVariableDeclaration(p) && p.initializer === n) ||
      (ts.isArrowFunction(p) && p.body === n)
    );
  };

  const visit = (node) => {
    if (
      ts.isImportDeclaration(node) ||
      ts.isExportDeclaration(node) ||
      ts.isTypeNode(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node)
    )
      return;
    if (ts.isBinaryExpression(node)) {
      const k = node.operatorToken.kind;
      const tok = node.operatorToken;
      if (boundary[k]) add(tok, 'boundary', boundary[k], tok.getStart(sf), tok.getEnd());
      if (negate[k]) add(tok, 'negate-equality', negate[k], tok.getStart(sf), tok.getEnd());
      if ((k === K.AmpersandAmpersandToken || k === K.BarBarToken) && isCondition(node) && !inMessage(node)) {
        add(node, 'drop-condition', node.left.getText(sf));
        add(node, 'drop-condition', node.right.getText(sf));
      }
      if (comparison.has(k)) {
        for (const [side, other] of [
          [node.left, node.right],
          [node.right, node.left],
        ]) {
          // A character code's range (`c >= 48 && c <= 57`) is a character class, not a limit.
          if (ts.isNumericLiteral(side) && !/^(?:c|code|ch)$|charCodeAt/.test(other.getText(sf))) {
            const v = Number(side.text.replace(/_/g, ''));
            add(side, 'limit', String(v + 1));
            if (v > 0) add(side, 'limit', String(v - 1));
          }
        }
      }
    }
    if (ts.isPrefixUnaryExpression(node) && node.operator === K.ExclamationToken && !inMessage(node))
      add(node, 'negation', node.operand.getText(sf));
    // A named limit (`const IDLE_GRACE_MS = 30_000`) and the facts table's numbers.
    if (ts.isNumericLiteral(node) && !inMessage(node)) {
      const p = node.parent;
      const named =
        ts.isVariableDeclaration(p) && p.parent?.parent?.parent === sf && /^[A-Z0-9_]+$/.test(p.name.getText(sf));
      const factsValue = isFacts && ts.isPropertyAssignment(p) && inTable(node);
      if (named || factsValue) {
        const v = Number(node.text.replace(/_/g, ''));
        add(node, 'limit', String(v + 1));
        if (v > 0) add(node, 'limit', String(v - 1));
      }
    }
    // One entry of a table removed.
    if (ts.isArrayLiteralExpression(node) && node.elements.length >= 2 && inTable(node)) {
      node.elements.forEach((el, i) => {
        const start = el.getFullStart();
        const end = i + 1 < node.elements.length ? node.elements[i + 1].getFullStart() : el.getEnd();
        const s = i + 1 < node.elements.length ? start : node.elements[i - 1].getEnd();
        add(el, 'remove-entry', '', s, end);
      });
    }
    // One alternative of a table's regular expression removed.
    if (ts.isRegularExpressionLiteral(node) && inTable(node)) {
      const lit = node.getText(sf);
      const close = lit.lastIndexOf('/');
      const alts = topLevelAlternatives(lit.slice(1, close));
      if (alts.length >= 2) {
        alts.forEach((a, i) => {
          const rest = alts
            .filter((_, j) => j !== i)
            .map((x) => x.text)
            .join('|');
          add(node, 'remove-alternative', `/${rest}/${lit.slice(close + 1)}`);
          out[out.length - 1].from = a.text;
        });
      }
    }
    // A call statement removed (an fsync, a rename, a check pushed, a verification awaited).
    if (ts.isExpressionStatement(node)) {
      const e = ts.isAwaitExpression(node.expression) ? node.expression.expression : node.expression;
      if (ts.isCallExpression(e)) add(node, 'remove-call', ';');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // A mutant's id names what it changes, not where: results stay valid when other lines of the file move.
  const seen = new Map();
  return out.map((m) => {
    const key = `${file}|${m.op}|${m.from}|${m.to}`;
    const k = (seen.get(key) ?? 0) + 1;
    seen.set(key, k);
    return { ...m, id: createHash('sha256').update(`${key}|${k}`).digest('hex').slice(0, 16) };
  });
}

/** The top-level `|` alternatives of a regular expression's source, with their offsets. */
function topLevelAlternatives(src) {
  const alts = [];
  let depth = 0;
  let cls = false;
  let from = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (cls) {
      if (c === ']') cls = false;
      continue;
    }
    if (c === '[') cls = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      alts.push({ text: src.slice(from, i), at: from });
      from = i + 1;
    }
  }
  alts.push({ text: src.slice(from), at: from });
  return alts;
}

/**
 * The deterministic sample: a mutant is tried when the hash of what it changes (file, operator,
 * old and new text, not its offset, so an edit elsewhere in the file keeps the sample) falls under
 * the rate. `--all` tries every mutant.
 */
const SCALE = flag('all') ? Infinity : Number(opt('sample', '1')) || 1;
function sampled(m) {
  const rate = (RATES[m.op] ?? RATES.other) * SCALE;
  if (rate >= 1) return true;
  const h = createHash('sha256').update(`${m.file}\0${m.op}\0${m.from}\0${m.to}`).digest();
  return h.readUInt32BE(0) / 0x100000000 < rate;
}

// ---------------------------------------------------------------------------------------------
// Which compiled test files exercise a module

function requiresOf(file) {
  const dir = path.dirname(file);
  const out = [];
  for (const m of readFileSync(file, 'utf8').matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
    const base = path.resolve(dir, m[1]);
    for (const cand of [base, `${base}.js`, path.join(base, 'index.js')]) {
      if (existsSync(cand) && statSync(cand).isFile()) {
        out.push(cand);
        break;
      }
    }
  }
  return out;
}

/** test file → the set of out/ modules it loads (transitively); direct imports separately. */
function testGraph(outDir) {
  const cache = new Map();
  const deps = (f) => {
    if (!cache.has(f)) cache.set(f, requiresOf(f));
    return cache.get(f);
  };
  const tests = readdirSync(path.join(outDir, 'test', 'unit'))
    .filter((n) => n.endsWith('.test.js'))
    .map((n) => path.join(outDir, 'test', 'unit', n));
  return tests.map((t) => {
    const seen = new Set();
    const stack = [t];
    while (stack.length) {
      const f = stack.pop();
      for (const d of deps(f)) if (!seen.has(d)) (seen.add(d), stack.push(d));
    }
    return { test: t, all: seen, direct: new Set(deps(t)) };
  });
}

// ---------------------------------------------------------------------------------------------
// Running

/** A worker folder: its own copy of out/, everything else of the repository linked. */
function prepareWorker(k) {
  const dir = path.join(WORK, `w${k}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const e of readdirSync(REPO)) {
    if (e === 'out' || e === '.mutation' || e === '.git') continue;
    symlinkSync(path.join(REPO, e), path.join(dir, e));
  }
  cpSync(path.join(REPO, 'out'), path.join(dir, 'out'), { recursive: true });
  return dir;
}

function firstFailure(out) {
  const m = /^not ok \d+ - (.*)$/m.exec(out) ?? /^✖ (.*)$/m.exec(out);
  return m ? m[1].slice(0, 160) : '';
}

async function testFile(workDir, rel, timeoutMs, env = {}) {
  const r = await runGroup('nice', ['-n', '10', process.execPath, '--test-reporter=tap', rel], {
    cwd: workDir,
    env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0', ...env },
    timeoutMs,
  });
  return { ...r, out: r.stdout + r.stderr };
}

/**
 * The source lines of `files` (TypeScript paths) that a test file's run executed, from V8's block
 * coverage of the compiled modules mapped back through their source maps: { 'src/…ts': [lines] }.
 */
function coveredLines(covDir, workDir, files) {
  const wanted = new Map(files.map((f) => [path.join(workDir, 'out', f.replace(/\.ts$/, '.js')), f]));
  const out = {};
  for (const name of existsSync(covDir) ? readdirSync(covDir) : []) {
    const data = JSON.parse(readFileSync(path.join(covDir, name), 'utf8'));
    for (const script of data.result ?? []) {
      if (!script.url.startsWith('file://')) continue;
      const file = wanted.get(fileURLToPath(script.url));
      if (!file) continue;
      const ranges = script.functions.flatMap((f) => f.ranges);
      const { lineMap, starts } = jsLines(file);
      const lines = new Set(out[file] ?? []);
      starts.forEach((offset, jsLine) => {
        const tsLine = lineMap[jsLine];
        if (tsLine === undefined || offset < 0) return;
        let best = null;
        for (const r of ranges)
          if (
            r.startOffset <= offset &&
            offset < r.endOffset &&
            (!best || r.endOffset - r.startOffset < best.endOffset - best.startOffset)
          )
            best = r;
        if (best && best.count > 0) lines.add(tsLine);
      });
      out[file] = [...lines].sort((a, b) => a - b);
    }
  }
  return out;
}

/** The source lines some compiled line of the module starts on, ascending. */
function mappedLines(file) {
  return [...new Set(jsLines(file).lineMap.filter((l) => l !== undefined))].sort((a, b) => a - b);
}

const jsLineCache = new Map();
/** For a module's compiled JS: the offset of each line's first non-blank character, and the source line it maps to. */
function jsLines(file) {
  if (jsLineCache.has(file)) return jsLineCache.get(file);
  const js = readFileSync(path.join(WORK, 'w0', 'out', file.replace(/\.ts$/, '.js')), 'utf8');
  const map = new SourceMap(
    JSON.parse(readFileSync(path.join(WORK, 'w0', 'out', file.replace(/\.ts$/, '.js.map')), 'utf8')),
  );
  const starts = [];
  const lineMap = [];
  let at = 0;
  js.split('\n').forEach((l, i) => {
    const col = l.search(/\S/);
    starts.push(col < 0 ? -1 : at + col);
    if (col >= 0) {
      const e = map.findEntry(i, col);
      if (e && e.originalLine !== undefined && /\.ts$/.test(e.originalSource ?? '')) lineMap[i] = e.originalLine + 1;
    }
    at += l.length + 1;
  });
  const r = { starts, lineMap };
  jsLineCache.set(file, r);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Results

function resultsFile(area) {
  return path.join(WORK, `results-${area}.json`);
}

function loadResults(area) {
  try {
    return JSON.parse(readFileSync(resultsFile(area), 'utf8'));
  } catch {
    return {};
  }
}

function summarize(areas) {
  const rows = [];
  const survivors = [];
  let killed = 0;
  let survived = 0;
  let invalid = 0;
  let timeouts = 0;
  for (const area of areas) {
    const r = Object.values(loadResults(area));
    const k = r.filter((x) => x.status === 'killed' || x.status === 'timeout').length;
    const s = r.filter((x) => x.status === 'survived');
    timeouts += r.filter((x) => x.status === 'timeout').length;
    invalid += r.filter((x) => x.status === 'invalid').length;
    killed += k;
    survived += s.length;
    rows.push({
      area,
      mutants: k + s.length,
      killed: k,
      survived: s.length,
      score: k + s.length ? ((100 * k) / (k + s.length)).toFixed(1) : '-',
    });
    survivors.push(...s.map((x) => ({ area, ...x })));
  }
  return {
    rows,
    survivors,
    killed,
    survived,
    invalid,
    timeouts,
    score: killed + survived ? (100 * killed) / (killed + survived) : 0,
  };
}

function printSummary(areas) {
  const s = summarize(areas);
  console.log('\n| Area | Mutants | Killed | Survived | Score |\n|---|---:|---:|---:|---:|');
  for (const r of s.rows) console.log(`| ${r.area} | ${r.mutants} | ${r.killed} | ${r.survived} | ${r.score} % |`);
  console.log(`| **all** | ${s.killed + s.survived} | ${s.killed} | ${s.survived} | ${s.score.toFixed(1)} % |`);
  console.log(`\n(${s.timeouts} killed by a hang, ${s.invalid} mutants that do not compile left out)`);
  if (s.survivors.length) {
    console.log('\nSurvivors:');
    for (const x of s.survivors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)) {
      console.log(
        `- ${x.file}:${x.line} ${x.op}: \`${x.from.replace(/\s+/g, ' ').slice(0, 90)}\` → \`${x.to.replace(/\s+/g, ' ').slice(0, 60)}\``,
      );
    }
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  if (flag('report')) {
    printSummary(areaNames);
    return;
  }
  const plan = [];
  for (const area of areaNames) {
    const files = [...new Set(AREAS[area]())].filter((f) => !ONLY_FILE || f.includes(ONLY_FILE));
    for (const f of files) for (const m of mutantsOf(f)) if (sampled(m)) plan.push({ area, ...m });
  }
  console.log(`building out/ …`);
  execFileSync(process.execPath, [path.join(REPO, 'scripts', 'build.mjs'), '--tests'], { cwd: REPO, stdio: 'inherit' });
  // Each worker has its own copy of out/ as built now: the worktree may be rebuilt during a run.
  mkdirSync(WORK, { recursive: true });
  const workers = Array.from({ length: JOBS }, (_, k) => prepareWorker(k));
  const outDir = path.join(workers[0], 'out');
  const graph = testGraph(outDir);
  const moduleOf = (file) => path.join(outDir, file.replace(/\.ts$/, '.js'));
  const testsFor = (file) => {
    const mod = moduleOf(file);
    return graph
      .filter((g) => g.all.has(mod))
      .map((g) => ({ rel: path.relative(outDir, g.test), direct: g.direct.has(mod) }));
  };

  if (flag('list')) {
    for (const m of plan)
      console.log(
        `${m.area} ${m.file}:${m.line} ${m.op} ${JSON.stringify(m.from.slice(0, 60))} → ${JSON.stringify(m.to.slice(0, 40))} (${testsFor(m.file).length} test files)`,
      );
    const byOp = {};
    for (const m of plan) byOp[m.op] = (byOp[m.op] ?? 0) + 1;
    console.log(`${plan.length} mutants`, byOp);
    return;
  }

  // Baseline: every test file a mutant would run, unmutated; its time orders the runs, a failing one is left out.
  const allFiles = Object.values(AREAS).flatMap((f) => f());
  const needed = [...new Set(plan.flatMap((m) => testsFor(m.file).map((t) => t.rel)))];
  const baselineFile = path.join(WORK, 'baseline.json');
  let baseline = {};
  try {
    baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
  } catch {
    /* first run */
  }
  // A test file's baseline holds while it and the mutated sources are unchanged.
  const sourcesStamp = createHash('sha256')
    .update(allFiles.map((f) => SOURCES.get(f) ?? readFileSync(path.join(REPO, f), 'utf8')).join('\0'))
    .digest('hex')
    .slice(0, 12);
  const stamp = (rel) =>
    `${createHash('sha256')
      .update(readFileSync(path.join(outDir, rel)))
      .digest('hex')
      .slice(0, 12)}-${sourcesStamp}`;
  const todo = needed.filter((rel) => baseline[rel]?.stamp !== stamp(rel));
  console.log(`baseline: ${todo.length} of ${needed.length} test files to time unmutated`);
  {
    let i = 0;
    await Promise.all(
      workers.map(async (w) => {
        while (i < todo.length) {
          const rel = todo[i++];
          const covDir = path.join(w, '.coverage');
          rmSync(covDir, { recursive: true, force: true });
          const r = await testFile(w, path.join('out', rel), TIMEOUT_MS * 3, { NODE_V8_COVERAGE: covDir });
          baseline[rel] = {
            stamp: stamp(rel),
            ok: r.code === 0 && !r.timedOut,
            ms: r.ms,
            lines: coveredLines(covDir, w, allFiles),
          };
          rmSync(covDir, { recursive: true, force: true });
          if (!baseline[rel].ok) console.log(`  left out (fails unmutated): ${rel} ${firstFailure(r.out)}`);
        }
      }),
    );
    writeFileSync(baselineFile, JSON.stringify(baseline, null, 1));
  }

  const results = Object.fromEntries(areaNames.map((a) => [a, loadResults(a)]));
  // Resuming: a mutant killed before is not tried again (--fresh tries all); a survivor is, since tests may have been added.
  const pending = plan.filter(
    (m) => flag('fresh') || !['killed', 'timeout', 'invalid'].includes(results[m.area][m.id]?.status),
  );
  // The survivors of the last run first: they are the ones new tests were written for.
  pending.sort(
    (a, b) =>
      Number(results[b.area][b.id]?.status === 'survived') - Number(results[a.area][a.id]?.status === 'survived'),
  );
  for (const a of areaNames) {
    // Results of mutants no longer made (the code changed) are dropped.
    const ids = new Set(plan.filter((m) => m.area === a).map((m) => m.id));
    for (const id of Object.keys(results[a])) if (!ids.has(id)) delete results[a][id];
  }
  console.log(
    `${plan.length} mutants, ${plan.length - pending.length} already tried, ${pending.length} to run with ${JOBS} at once`,
  );
  const t0 = Date.now();
  let done = 0;
  let next = 0;
  const sources = new Map();
  const killers = new Map();
  const source = (file) => {
    if (!sources.has(file)) sources.set(file, SOURCES.get(file));
    return sources.get(file);
  };
  const save = (area) => writeFileSync(resultsFile(area), JSON.stringify(results[area], null, 1));

  await Promise.all(
    workers.map(async (w) => {
      while (next < pending.length) {
        const m = pending[next++];
        const text = source(m.file);
        const mutated = text.slice(0, m.start) + m.to + text.slice(m.end);
        const target = path.join(w, 'out', m.file.replace(/\.ts$/, '.js'));
        const original = readFileSync(target);
        let res;
        try {
          const js = await esbuild.transform(mutated, {
            loader: 'ts',
            format: 'cjs',
            platform: 'node',
            target: 'node20',
            sourcefile: m.file,
            supported: { 'dynamic-import': false },
          });
          writeFileSync(target, js.code);
          // The test files whose unmutated run executed the mutated line; the one that killed the
          // last mutant of this file first, then direct importers, fastest first.
          // A source line that no compiled line starts on (inside a chain esbuild joined into one
          // line) counts as the line its statement starts on: the nearest mapped line above it.
          const mapped = mappedLines(m.file);
          const first = mapped.filter((l) => l <= m.line).pop() ?? m.line;
          const endLine = m.line + (m.from.match(/\n/g)?.length ?? 0);
          const killer = killers.get(m.file);
          const tests = testsFor(m.file)
            .filter(
              (t) =>
                baseline[t.rel]?.ok && (baseline[t.rel].lines?.[m.file] ?? []).some((l) => l >= first && l <= endLine),
            )
            .sort(
              (a, b) =>
                Number(b.rel === killer) - Number(a.rel === killer) ||
                Number(b.direct) - Number(a.direct) ||
                baseline[a.rel].ms - baseline[b.rel].ms,
            );
          res = { status: 'survived', tests: tests.length };
          for (const t of tests) {
            const r = await testFile(w, path.join('out', t.rel), TIMEOUT_MS);
            if (r.timedOut) {
              res = { status: 'timeout', by: t.rel };
              break;
            }
            if (r.code !== 0) {
              killers.set(m.file, t.rel);
              res = { status: 'killed', by: t.rel, test: firstFailure(r.out) };
              break;
            }
          }
        } catch (err) {
          res = { status: 'invalid', error: String(err.message ?? err).slice(0, 200) };
        } finally {
          writeFileSync(target, original);
        }
        const { area, ...rest } = m;
        results[area][m.id] = { ...rest, ...res };
        done++;
        save(area);
        const el = ((Date.now() - t0) / 1000).toFixed(0);
        console.log(
          `[${done}/${pending.length} ${el}s] ${res.status.padEnd(8)} ${m.file}:${m.line} ${m.op} ${JSON.stringify(m.from.slice(0, 50))} → ${JSON.stringify(m.to.slice(0, 30))}${res.by ? ` (${path.basename(res.by)})` : ''}`,
        );
      }
    }),
  );
  for (const a of areaNames) save(a);
  const s = printSummary(areaNames);
  process.exitCode = s.score >= 85 ? 0 : 1;
}

await main();
