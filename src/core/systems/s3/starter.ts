/** S3's starter: STATE.md's empty template (the Handoff block and the Log), as the seed writes it. A skeleton on purpose (placeholders only): the checks flag it until the agent fills it in. */
import { t } from '../../model/messages';
import type { Starter } from '../starter';
import { systemName } from '../facts';
import { S3_FACTS } from './facts';

const S3_STATE = `# STATE: live project state

<!-- Filled by the first session, then kept literally true by every checkpoint. Budget: 150 lines. -->

## Handoff: read this first

- **Status:** TBD
- **Phase:** TBD
- **Branch / HEAD:** TBD
- **Gates:** TBD <!-- with numbers: "checks green, tests 42/42" -->
- **Now ▶** TBD <!-- the single exact next action, concrete enough to start cold -->
- **Blocked on:** TBD

## Log

<!-- Newest first. One short dated entry per session: Done, Docs touched, Lessons / gotchas, Stopped at. -->
`;

export const S3_STARTER: Starter = {
  system: 'S3',
  title: `${systemName('S3')} · ${S3_FACTS.home}`,
  description: t('A handoff block (Status, Gates, Now ▶, Blocked on) and a dated log, newest first.'),
  files: [{ path: S3_FACTS.home, content: S3_STATE }],
  home: S3_FACTS.home,
};
