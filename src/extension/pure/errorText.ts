/**
 * An error as one sentence in the user's language. A refused write (WriteRefused) is worded here
 * from its reason, detail and file, never from the core's English message; an operating-system
 * error (errno text such as `EACCES: permission denied, open '…'`) and any other error keep their
 * own message, which already names the cause (the extension's own errors are localized when thrown).
 * vscode-free so it is unit tested; `t` is vscode.l10n.t.
 */
import { WriteRefused } from '../../core/atomic';
import type { T } from './treeText';

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
      case 'invalid':
        return t('The compacted {0} would not be valid; nothing was written. Fix its structure first.', f);
      case 'invalid-written':
        return t('{0} was written, but its structure on disk is not valid.', f);
    }
    switch (err.reason) {
      case 'changed':
        return t('{0} changed since it was read; nothing was written. Try again.', f);
      case 'exists':
        return t('{0} already exists; nothing was overwritten.', f);
      case 'outside':
        return t('{0} leads outside the workspace; nothing was written.', f);
      case 'io':
        return t('{0} cannot be changed safely; nothing was written.', f);
    }
  }
  return (err as Error)?.message ?? String(err);
}
