import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Disposable } from '../../src/extension/dispose';

class Owner extends Disposable {
  add(name: string, log: string[]): void {
    this._register({ dispose: () => log.push(name) });
  }
  get gone(): boolean {
    return this.isDisposed;
  }
}

test('Disposable: _register, dispose newest first and once, a late registration is disposed at once, one throwing does not stop the rest', () => {
  const log: string[] = [];
  const o = new Owner();
  o.add('a', log);
  o.add('b', log);
  (o as unknown as { _register: (d: { dispose(): void }) => void })._register({
    dispose: () => {
      throw new Error('boom');
    },
  });
  o.add('c', log);
  o.dispose();
  assert.deepEqual(log, ['c', 'b', 'a']);
  assert.ok(o.gone);
  o.dispose();
  assert.deepEqual(log, ['c', 'b', 'a']);
  o.add('late', log);
  assert.deepEqual(log, ['c', 'b', 'a', 'late']);
});
