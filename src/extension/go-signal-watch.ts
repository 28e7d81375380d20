/**
 * Follows the go-signals Checkpoint now gave (pure/go-signal): when the folder's state files, checks or
 * ticks, or the marker, change after one, a warning follows it saying that it no longer holds, once.
 * VS Code keeps a notification in its list and has no API to close it, so the later one says what is
 * true now. A go-signal that was used (its session compacted or cleared since, core's goSignalUse) is
 * let go without a warning: what the agent writes after that is its next work. While a Checkpoint now
 * runs in a folder its go-signals are not judged (the run may write the same marker again); a
 * go-signal for the same marker takes the place of the one before.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointOutcome } from '../core/checkpoint/checkpoint';
import { localClock } from '../core/model/time';
import { readSettings } from './config';
import { Disposable } from './dispose';
import { filesIn, quotedT } from './pure/findings';
import { goSignalNow, goSignalOf, withdrawal, type GoSignal, type WithdrawalOffer } from './pure/go-signal';
import type { LedgerStore } from './store';

/** At most this many go-signals are followed; the oldest is let go first. */
const MAX_FOLLOWED = 16;

export class GoSignalWatch extends Disposable {
  private readonly followed = new Map<string, { g: GoSignal; folder: vscode.WorkspaceFolder }>();
  /** Folders where a Checkpoint now runs, and how many runs. */
  private readonly held = new Map<string, number>();
  private checking = Promise.resolve();

  constructor(
    private readonly store: LedgerStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(
      store.onDidChange((f) => {
        if (f) this.check(f);
      }),
    );
  }

  /** A Checkpoint now starts in `folder`: its go-signals wait until `release` is called. */
  hold(folder: vscode.WorkspaceFolder): () => void {
    const key = folder.uri.toString();
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.held.get(key) ?? 1) - 1;
      if (n > 0) this.held.set(key, n);
      else this.held.delete(key);
      this.check(folder);
    };
  }

  /** The outcome of a Checkpoint now shown to the user: followed when it gave a go-signal. Never throws. */
  async given(folder: vscode.WorkspaceFolder, o: CheckpointOutcome): Promise<void> {
    if (o.kind !== 'written' || !o.marker) return;
    try {
      const g = goSignalOf(folder.uri.toString(), o, await this.markerHash(folder, o.marker), Date.now());
      if (!g || this.isDisposed) return;
      this.followed.delete(g.key);
      this.followed.set(g.key, { g, folder });
      while (this.followed.size > MAX_FOLLOWED) this.followed.delete(this.followed.keys().next().value as string);
    } catch (err) {
      this.log.warn(`Go-signal: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  private async markerHash(folder: vscode.WorkspaceFolder, rel: string): Promise<string | null> {
    const [{ readTextFile }, { MARKER_MAX_BYTES }] = await Promise.all([
      import('../core/files/fsread'),
      import('../core/checkpoint/marker'),
    ]);
    const f = await readTextFile(path.join(folder.uri.fsPath, ...rel.split('/')), MARKER_MAX_BYTES);
    return f.ok && !f.truncated ? f.hash : null;
  }

  /** How the go-signal's session used it since (compacted, cleared), or null. */
  private async use(folder: vscode.WorkspaceFolder, g: GoSignal): Promise<'compacted' | 'cleared' | null> {
    const { goSignalUse } = await import('../core/checkpoint/used');
    const s = readSettings(folder.uri);
    return goSignalUse(
      folder.uri.fsPath,
      { sessionId: g.session, at: g.at },
      { claudeHome: s.claudeHome, codexHome: s.codexHome },
    );
  }

  /** Judge the folder's go-signals again (one judgement at a time). */
  private check(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    this.checking = this.checking
      .then(async () => {
        if (this.held.has(key) || this.isDisposed) return;
        const raw = this.store.folder(folder.uri)?.raw;
        for (const [k, { g }] of [...this.followed]) {
          if (!k.startsWith(`${key}|`)) continue;
          // Replaced or let go while a file was read, or a run began: judged next time.
          const moved = () => this.followed.get(k)?.g !== g || this.held.has(key);
          const report = raw ? this.store.withTicksOf(raw, g.ticksFor) : undefined;
          const why = goSignalNow(g, { report, markerHash: await this.markerHash(folder, g.marker) });
          if (why === 'holds' || moved()) continue;
          const used = await this.use(folder, g);
          if (moved()) continue;
          this.followed.delete(k);
          if (used) {
            this.log.info(
              `Go-signal of ${localClock(g.at, Date.now())} (${g.marker}) let go: its session was ${used} after it.`,
            );
            continue;
          }
          // What it offers is decided on the folder as it is now, with the ticks of the marker's session.
          const { text, offer } = withdrawal(
            vscode.l10n.t,
            g,
            why,
            localClock(g.at, Date.now()),
            report,
            filesIn(folder.uri.fsPath),
          );
          this.log.info(text);
          void this.warn(folder, text, offer);
        }
      })
      .catch((err) => this.log.warn(`Go-signal: ${(err as Error)?.message ?? String(err)}`));
  }

  /**
   * The warning, with the step that can succeed now: Checkpoint now only when nothing blocks and every
   * manual item is ticked; while a blocking check fails, its finding (where the Problems panel places it);
   * while a manual item is open, the checklist on it.
   */
  private async warn(folder: vscode.WorkspaceFolder, text: string, offer: WithdrawalOffer): Promise<void> {
    const t = quotedT(vscode.l10n.t);
    const again = t('Checkpoint now');
    const show = t('Show problem');
    const open = t('Open checklist');
    const buttons = offer.kind === 'checkpoint' ? [again, open] : offer.kind === 'fix' ? [show, open] : [open];
    const pick = await vscode.window.showWarningMessage(text, ...buttons);
    if (pick === again) await vscode.commands.executeCommand('sessionLedger.checkpointNow', { folderUri: folder.uri });
    else if (pick === show && offer.kind === 'fix' && offer.finding.check.id === 'exists')
      // A missing file has no line to open: the Problems panel lists it.
      await vscode.commands.executeCommand('workbench.actions.view.problems');
    else if (pick === show && offer.kind === 'fix')
      await vscode.commands.executeCommand('sessionLedger.openStateFile', {
        uri: vscode.Uri.joinPath(folder.uri, ...offer.finding.path.split('/')),
        line: offer.finding.line,
      });
    else if (pick === open)
      await vscode.commands.executeCommand(
        'sessionLedger.openChecklist',
        folder.uri,
        offer.kind === 'fix'
          ? { system: offer.finding.check.system, checkId: offer.finding.check.id }
          : offer.kind === 'tick'
            ? { system: offer.system, checkId: offer.checkId }
            : undefined,
      );
  }
}
