/**
 * An error as one sentence in the user's language. A refused write (WriteRefused) is worded here
 * from its reason, detail and file, never from the core's English message; an operating-system
 * error (errno text such as `EACCES: permission denied, open '…'`) and any other error keep their
 * own message, which already names the cause (the extension's own errors are localized when thrown).
 * Likewise a guard-hooks plan that cannot be carried out, from its `problem`.
 * vscode-free so it is unit tested; `t` is vscode.l10n.t.
 */
import { WriteRefused } from '../../core/files/atomic';
import type { HooksProblem } from '../../core/hooks/install';
import { render } from '../../core/model/messages';
import type { T } from './tree-text';

export function errorText(t: T, err: unknown): string {
  if (err instanceof WriteRefused && err.file) {
    const f = err.file;
    switch (err.detail) {
      case 'preview':
        return t('{0} changed since the preview; nothing was written. Preview it again.', f);
      case 'missing':
        return t('{0} is missing or no longer holds what was previewed; nothing was written.', f);
      case 'not-file':
        return t('{0} is not a regular file; nothing was written.', f);
      case 'unreadable':
        return t('{0} cannot be read; nothing was written.', f);
      case 'links':
        return t('{0}: too many symbolic links; nothing was written.', f);
      case 'hard-links':
        return t(
          '{0} has more than one hard link, so it may be a file from outside the workspace folder: Session Ledger does not change it; nothing was written.',
          f,
        );
      case 'protected':
        return t(
          "{0} is a link to git's own files or to a file Session Ledger never writes through a link; nothing was written. Remove the link and try again.",
          f,
        );
      case 'invalid':
        return t('The compacted {0} would not be valid; nothing was written. Fix its structure first.', f);
      case 'invalid-written':
        return t('{0} was written, but its structure on disk is not valid.', f);
      case 'not-folder':
        return t(
          "{0} is not a folder, and Session Ledger's files go in it; nothing was written. Move it away and try again.",
          f,
        );
      case 'too-large':
        return t('{0} is too large to edit safely; nothing was changed.', f);
      case 'tracked':
        return t(
          '{0} is tracked by git: it came with the repository, so it is no lock of a run on this machine; nothing was written. Untrack and delete it (git rm --cached {0}, then delete the file), then try again.',
          f,
        );
      case 'same-file':
        return t(
          '{0} is a link to the file its entries would be taken from, so they would end up in no file; nothing was written. Remove the link and try again.',
          f,
        );
    }
    switch (err.reason) {
      case 'changed':
        return t('{0} changed since it was read; nothing was written. Try again.', f);
      case 'exists':
        return t('{0} already exists; nothing was overwritten.', f);
      case 'outside':
        return t('{0} leads outside the workspace; nothing was written.', f);
      case 'busy':
        if (err.lock)
          return t(
            '{1} says another Session Ledger run is changing {0}; nothing was written. Try again once that run is done; if no Session Ledger run is going on, delete {1} and try again.',
            f,
            err.lock,
          );
        return t(
          '{0} is being changed by another Session Ledger run; nothing was written. Try again once it is done.',
          f,
        );
      case 'link':
        return t(
          '{0} is a link or lies behind one: Session Ledger never writes its own files through a link; nothing was written. Remove the link and try again.',
          f,
        );
      case 'io':
        return t('{0} cannot be changed safely; nothing was written.', f);
    }
  }
  return (err as Error)?.message ?? String(err);
}

/**
 * Why a guard-hooks plan cannot be carried out, about its settings file `rel`, in the user's
 * language; `english` (the plan's `error`) only when the plan gives no problem.
 */
export function hooksProblemText(t: T, rel: string, problem: HooksProblem | undefined, english: string): string {
  switch (problem?.kind) {
    case 'unreadable':
      return t('{0} cannot be read; nothing was changed.', rel);
    case 'too-large':
      return t('{0} is too large to edit safely; nothing was changed.', rel);
    case 'not-json':
      return t(
        '{0} is not valid JSON at line {1}, column {2}: {3}. Fix it by hand first; nothing was changed.',
        rel,
        problem.line,
        problem.column,
        render(problem.what, t),
      );
    case 'too-deep':
      return t('{0} is nested too deeply to edit safely: fix it by hand first; nothing was changed.', rel);
    case 'not-object':
      return t('{0} is not a JSON object: fix it by hand first; nothing was changed.', rel);
    case 'duplicate-key':
      return t(
        '{0} has the key {1} twice: Claude Code reads the last one, an edit would change the first. Merge them into one by hand first; nothing was changed.',
        rel,
        problem.key,
      );
    case 'key-not-object':
      return t('"{1}" in {0} is not an object: fix it by hand first; nothing was changed.', rel, problem.key);
    case 'key-not-array':
      return t('"{1}" in {0} is not a list: fix it by hand first; nothing was changed.', rel, problem.key);
    // The file is missing from the extension's own folder, whatever put it there: a package built without
    // it, or a file deleted since. The words say which file and what still works, not a remedy that
    // cannot help when the package itself lacks it.
    case 'no-bundle':
      return problem.script === 'statusline'
        ? t(
            'The extension\'s files lack the status line\'s script ({0}), which the relay runs; nothing was changed. "Hooks only" installs the guard hooks without the relay.',
            problem.file ?? '',
          )
        : t(
            "The extension's files lack its hook script ({0}), which the install copies; nothing was changed. The command-line tool installs the same hooks: session-ledger hooks install.",
            problem.file ?? '',
          );
    case 'elsewhere':
      return t('No Session Ledger hooks in {0}: they are installed in {1}.', rel, problem.other);
    case 'refused':
      return t('Cannot change {0}: {1}', rel, errorText(t, problem.cause));
    case 'modified':
      return t(
        '{0} was changed since it was installed; nothing was changed. Keep your version elsewhere (or delete the file), then install the hooks again.',
        problem.file,
      );
    case 'tracked':
      return t(
        '{0} is tracked by git: it came with the repository, so it is neither used nor changed; nothing was changed. Untrack it (git rm --cached {0}), then try again.',
        problem.file,
      );
  }
  return t('Cannot change {0}: {1}', rel, english);
}
