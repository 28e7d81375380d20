import * as assert from 'node:assert/strict';
import { SESSION_ID, getApi, waitFor } from '../helpers';

describe('context status bar', () => {
  it("shows the fixture session's usage from its transcript (10 %, below the S3 proposal at 15 %)", async () => {
    const api = await getApi();
    const sb = await waitFor('the status bar item', () => api.statusBar());
    assert.equal(sb.text, '$(pulse) 10%');
    assert.ok(!sb.background, `no background below the first threshold (got ${sb.background})`);
    assert.match(
      sb.label,
      /^Session Ledger: context 10 percent, under the checkpoint mark for S3 \(15 percent\)\./,
      'the spoken label says the figure and the mark',
    );
    assert.ok(sb.tooltip.includes(SESSION_ID.slice(0, 8)), `the tooltip names the session (${sb.tooltip})`);
  });
});
