/**
 * S4's closing step (checkpointing skill). Its Safety Gates end with the report: the checkpoint
 * path, the state blocks pruned, the sections preserved, the research notes archived, the validation
 * result and the remaining risks, in Japanese. The seed prescribes no fresh-context step, so the
 * go-signal is S2's line after the report.
 *
 * What each line says is what is on disk now: the newest checkpoint file, the older Current blocks
 * the compact phase prunes (none once it ran), the other `##` sections it keeps verbatim, the notes
 * under `.agents/docs/research/archive/`, the structure check and the label, the risks the newest
 * block (or the newest PROGRESS entry) records.
 */
import { clip } from '../../markdown/text';
import type { StateDoc, SystemReport } from '../../model/model';
import type { ClosingOf } from '../../report/closing';
import { blockKind, type S4Structure } from './reader-state';
import { S4_RESEARCH_ARCHIVE } from './reader';
import { oneLine, t } from '../../model/messages';
import { goSignal } from '../s2/closing';

/** The report's figures, as data (the CLI prints them as the Japanese lines below). */
export interface S4Report {
  checkpoint: string | null;
  /** Older Current blocks still in the state (the compact phase prunes them). */
  pruned: string[];
  /** The other `##` sections, kept verbatim. */
  preserved: string[];
  research: { active: number; archived: number };
  structureOk: boolean;
  label: SystemReport['label'];
  warnings: number;
  risks: string[];
}

/** The report's figures from the system's report. */
export function s4Report(s: SystemReport): S4Report {
  const home: StateDoc | undefined = s.docs.find((d) => d.relPath === s.home);
  const cp = s.docs.find((d) => d.role === 'checkpoint');
  const st = home?.meta.s4 as S4Structure | undefined;
  const preserved = (home?.sections ?? [])
    .filter((x) => x.level === 2 && blockKind(x.title) === null)
    .filter((x) => !(st?.blocks ?? []).some((b) => x.line > b.line && x.line <= b.endLine))
    .map((x) => x.title);
  return {
    checkpoint: cp?.relPath ?? null,
    pruned: (st?.blocks ?? []).filter((b) => !b.newestOfKind).map((b) => b.title),
    preserved,
    research: (home?.meta.research as S4Report['research'] | undefined) ?? { active: 0, archived: 0 },
    structureOk: s.checks.some((c) => c.id === 'structure' && c.status === 'pass'),
    label: s.label,
    warnings: s.checks.filter((c) => c.status === 'warn').length,
    risks: ((home?.meta.risks as string[] | undefined) ?? []).map((r) => clip(r, 80)),
  };
}

/** The report in the seed's language (Japanese), one line per item the Safety Gates name. */
export function s4ReportLines(r: S4Report): string[] {
  const list = (xs: string[]) => xs.map((x) => clip(x, 60)).join('、');
  return [
    `チェックポイント: ${r.checkpoint !== null ? oneLine(r.checkpoint) : 'なし（.agents/checkpoints/ にファイルがありません）'}`,
    r.pruned.length
      ? `刈り込む状態ブロック: ${r.pruned.length} 件（${list(r.pruned)}）— コンパクトフェーズで各種類の最新ブロックだけを残します`
      : '刈り込む状態ブロック: 0 件（各種類の最新ブロックのみ）',
    `保持したセクション: ${r.preserved.length} 件${r.preserved.length ? `（${list(r.preserved)}）` : ''}`,
    `アーカイブした研究ノート: ${r.research.archived} 件（${S4_RESEARCH_ARCHIVE}/、アクティブ ${r.research.active} 件）`,
    `検証結果: ${r.structureOk ? '構造 OK（# Agent State と ## Progress Tracker が各 1 件）' : '構造 NG'}、ラベル ${r.label}${r.warnings ? `、警告 ${r.warnings} 件` : ''}`,
    `残りのリスク: ${r.risks.length ? list(r.risks) : 'なし'}`,
  ];
}

export const closingS4: ClosingOf = (s) => {
  const report = s4ReportLines(s4Report(s));
  const signal = goSignal();
  return {
    lines: [...report, signal.text],
    // The same report on one line (it stays in Japanese in every language), then the go-signal.
    notice: t('{0} {1}', `${report.join('。')}。`, signal),
  };
};
