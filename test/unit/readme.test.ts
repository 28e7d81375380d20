import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO } from './helpers';

const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  repository: { url: string };
  bugs: { url: string };
  homepage: string;
  engines: { node: string };
  categories: string[];
};
const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
/** https://github.com/OWNER/NAME, from package.json's repository: the one place the address is written. */
const repoUrl = pkg.repository.url.replace(/\.git$/, '');

test('package.json: repository, bugs and homepage name the same GitHub repository; categories include AI', () => {
  assert.match(repoUrl, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  assert.equal(pkg.bugs.url, `${repoUrl}/issues`);
  assert.equal(pkg.homepage, `${repoUrl}#readme`);
  assert.ok(pkg.categories.includes('AI'));
});

test("README images are absolute https addresses of files in this repository, under package.json's repository", () => {
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  assert.ok(images.length >= 1, 'the README shows a screenshot');
  for (const src of images) {
    const prefix = `${repoUrl}/raw/HEAD/`;
    assert.ok(src.startsWith(prefix), `${src} must start with ${prefix} (package.json's repository)`);
    assert.ok(existsSync(path.join(REPO, src.slice(prefix.length))), `${src}: no such file in the repository`);
  }
});

test("every address of this project's repository in the docs is under package.json's (the owner is written there only); each image it names exists", () => {
  const docs = [
    'README.md',
    'CONTRIBUTING.md',
    'CHANGELOG.md',
    ...readdirSync(path.join(REPO, 'docs')).map((f) => `docs/${f}`),
  ];
  let seen = 0;
  for (const f of docs.filter((x) => x.endsWith('.md'))) {
    const text = readFileSync(path.join(REPO, f), 'utf8');
    for (const [url] of text.matchAll(/https:\/\/github\.com\/[\w.-]+\/session-ledger\b[^)\s>]*/g)) {
      seen++;
      assert.ok(url.startsWith(repoUrl), `${f}: ${url} is not under ${repoUrl} (package.json's repository)`);
      const raw = `${repoUrl}/raw/HEAD/`;
      if (url.startsWith(raw))
        assert.ok(existsSync(path.join(REPO, url.slice(raw.length))), `${f}: ${url}: no such file`);
    }
  }
  assert.ok(seen > 0);
});

test('README links to files of the repository that exist (relative links; vsce makes them absolute from the repository)', () => {
  const links = [...readme.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s#]+)(#[^)\s]*)?\)/g)]
    .map((m) => m[1])
    .filter((l) => !/^\w+:/.test(l));
  assert.ok(links.includes('CONTRIBUTING.md'));
  // The per-system REQUIREMENTS.md are written by their systems' owners; the rest must exist now.
  for (const l of links.filter((x) => !x.endsWith('/REQUIREMENTS.md')))
    assert.ok(existsSync(path.join(REPO, l)), `README links to ${l}, which does not exist`);
});

test('README: the first screen says what it is and how to install it; the contributor set-up lives in CONTRIBUTING.md', () => {
  const firstScreen = readme.split('\n').slice(0, 40).join('\n');
  assert.match(firstScreen, /\/compact/);
  assert.match(readme, /^## Install$/m);
  assert.match(readme, /npm install -g \./);
  const contributing = readFileSync(path.join(REPO, 'CONTRIBUTING.md'), 'utf8');
  for (const cmd of ['npm start', 'npm test']) {
    assert.ok(contributing.includes(cmd), `CONTRIBUTING.md says ${cmd}`);
    assert.ok(readme.includes(cmd), `README says ${cmd}`);
  }
  assert.ok(readme.split('\n').length < 250, 'the README stays a product page');
});
