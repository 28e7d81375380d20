/** S4's starter: `.agents/STATE.md` with its Progress Tracker link and PROGRESS.md (left alone when it exists), as the seed writes them. A skeleton on purpose (placeholders only): the checks flag it until the agent fills it in. */
import { t } from '../../model/messages';
import type { Starter } from '../starter';
import { companionPath, systemName } from '../facts';
import { S4_FACTS } from './facts';

const S4_STATE = `# Agent State

## Main Agent

<agent>

## Repository Identity

_Not initialized yet._

## Progress Tracker

Rolling progress summary (latest 5 checkpoints): [PROGRESS.md](../PROGRESS.md)

<!-- Working state below is maintained by workflow skills and manual notes. -->
`;

const S4_PROGRESS = `# Progress

<!-- The latest five checkpoint summaries, newest first (rebuilt by the checkpointing skill). -->
`;

export const S4_STARTER: Starter = {
  system: 'S4',
  title: `${systemName('S4')} · ${S4_FACTS.home}`,
  description: t('One # Agent State with a Progress Tracker; PROGRESS.md keeps the latest five checkpoints.'),
  files: [
    { path: S4_FACTS.home, content: S4_STATE },
    { path: companionPath('S4', 'progress'), content: S4_PROGRESS, optional: true },
  ],
  home: S4_FACTS.home,
};
