import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spikes } from '../src/anomaly.js';

const at = new Date('2026-11-30T00:00:00Z');
test('a 60 cm jump is a spike', () => {
  const r = [100, 105, 165, 170].map((levelCm) => ({ station: 'HBR-01', at, levelCm }));
  assert.equal(spikes(r).length, 1);
});
