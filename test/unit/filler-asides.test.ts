// withoutFillerAsides drops the asides that fill nothing in ("TBD (owner: alice)") and keeps those that name
// a file, a command or a test; a text without an aside is looked at for none of those.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withoutFillerAsides } from '../../src/core/markdown/text';

/** The subjects of every regular expression run while `f` runs (RegExp.prototype.exec, which test, match and replace call once it is replaced). */
function subjectsOf(f: () => void): string[] {
  const exec = Object.getOwnPropertyDescriptor(RegExp.prototype, 'exec')!;
  const seen: string[] = [];
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    seen.push(String(s));
    return (exec.value as RegExp['exec']).call(this, s);
  };
  try {
    f();
  } finally {
    Object.defineProperty(RegExp.prototype, 'exec', exec);
  }
  return seen;
}

test('a text without an aside is no aside to judge: no pattern runs on the nothing after it, and the text comes back as before', () => {
  for (const [t, want] of [
    ['TBD', 'TBD'],
    ['Run the migration  ', 'Run the migration'],
    ['Next:', 'Next:'],
    ['', ''],
  ]) {
    let got = '';
    const subjects = subjectsOf(() => (got = withoutFillerAsides(t)));
    assert.equal(got, want, t);
    assert.deepEqual(
      subjects.filter((s) => s.trim() === ''),
      [],
      `${JSON.stringify(t)}: patterns ran on white space`,
    );
  }
  // With an aside, as before: one that fills nothing in goes, one that names a file or a command stays.
  assert.equal(withoutFillerAsides('TBD (owner: alice)'), 'TBD');
  assert.equal(withoutFillerAsides('TBD (waiting on GitHub)'), 'TBD');
  assert.equal(withoutFillerAsides('TODO (fix the null check in src/a.ts)'), 'TODO (fix the null check in src/a.ts)');
  assert.equal(withoutFillerAsides('TODO (run `npm test`)'), 'TODO (run `npm test`)');
  assert.equal(withoutFillerAsides('Next: (run npm test)'), 'Next: (run npm test)');
});
