/**
 * A workspace root as the readers and checks see it: cached reads, path kinds, and git facts.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../files/atomic';
import {
  CONFIG_MAX_BYTES,
  DEFAULT_MAX_BYTES,
  listDir,
  pathKind,
  readTextFile,
  realpathOrSelf,
  type PathKind,
  type TextFile,
  type TextFileErr,
} from '../files/fsread';
import type { GitAbsence, GitInfo, GitReader, GitRun } from '../git/git';
import { installChanges } from '../hooks/install-edits';
import { lineTotal, parseMarkdown, type MdOutline } from '../markdown/markdown';
import { frontMatterFound, withLineCuts, type LineCut } from '../markdown/yaml-tree';
import { maskSecrets, type SecretHit } from '../secrets/secrets';
import { finding, t, type Msg } from './messages';
import type { DocRole, Finding, NotOurs, NotReadWhy, Section, StateDoc, SystemId, WorkspaceReport } from './model';

export interface EvaluateOptions {
  /** Manual checks the user ticked, as `S1:feedback-stored` or a bare id (`feedback-stored`) for every system. */
  confirmed?: Iterable<string>;
  /**
   * Called once with the first results of the scan, when the documents are read and checked but
   * git's facts are not in yet (the checks that need them are `pending`; the report has
   * `gitPending`). Not called without git. The full report is what `evaluate` resolves to.
   */
  onGitPending?: (report: WorkspaceReport) => void;
  /** Extra state files (relative to the root) to read as a system's home file: `{ S3: ['notes/STATE.md'] }`. */
  extraPaths?: Partial<Record<SystemId, string[]>>;
  /** Clock, for TTL and age rules (ms). Default `Date.now()`. */
  now?: number;
  /** Read at most this many bytes of a state file. */
  maxBytes?: number;
  /**
   * Skip git entirely (checks that need it say `skipped`). `'restricted'`: the same in a folder read in
   * Restricted Mode, where no process runs; those checks say so instead of calling it no repository.
   */
  noGit?: boolean | 'restricted';
  /**
   * `false`: read and detect the systems but run none of their rules; each system's checks are its
   * manual items only, its label and next action say nothing, and its documents are hashed only when asked
   * and are parsed only when a reader looks at them; S2's plan (named by the ledger's PLAN pointer) is not read.
   * For a caller that needs only which systems are there, their files and their manual items (the
   * guard before any checkpoint ran).
   * `'skeleton'`: the same, but each system's `not-skeleton` check runs too (on its home document,
   * parsed for it): the guard once a checkpoint marker exists, whose rules look at nothing else.
   * `'resume'`: each system's `resume` instead of its rules: the next action, the UNCONFIRMED items,
   * the resume prompt and the checks said at session start (the SessionStart hook after `/clear` or
   * `/compact`).
   * `'start'`: only the checks said at every session start (S1's attestation, S0's unread `.agents.yml`,
   * a home file that cannot be read): the SessionStart hook when a session starts or resumes, which
   * gives no resume block; the other documents are not parsed.
   */
  rules?: boolean | 'skeleton' | 'resume' | 'start';
  /** Claude Code's config folder (S1 reviews its global `STATE.md`). Default: `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
  claudeHome?: string;
  /** State files of systems not read this time (a re-read of some systems): not counted as work in git checks. */
  otherStateFile?: (rel: string) => boolean;
  /**
   * A re-read after a change of state files only may take git's status from a run at most this long
   * ago (ms) in the same process: a state file's own edit moves nothing git reports as work, branch
   * or HEAD. Only `evaluateChanged` applies it, and only to such a change.
   */
  stateOnlyGitMaxAgeMs?: number;
  /** Set by `evaluateChanged` for a change of state files only (see `stateOnlyGitMaxAgeMs`). */
  gitMaxAgeMs?: number;
}

/** Every rule of every system runs (no `rules: false` or `'skeleton'`). */
export function allRules(o: EvaluateOptions): boolean {
  return o.rules === undefined || o.rules === true;
}

/** What a reader's parser makes of a document: its sections and what else it recorded. Readers judge nothing: findings are the checks'. */
export interface ParsedContent {
  sections: Section[];
  meta?: Record<string, unknown>;
  /**
   * Secrets the parser found in what it decoded (a YAML value taken from the lines below its key, an
   * escape), which the text masker did not see: added to the document's `secrets`, so no-secrets names them.
   */
  secrets?: readonly SecretHit[];
  /**
   * Where the document's text holds what the parser masked in what it decoded (`secrets`' values): the text the
   * model keeps shows the masked form there, each line break kept (`withLineCuts`).
   */
  cuts?: readonly LineCut[];
  /** The parser read the document's front matter as YAML itself (its secrets and cuts are among the above). */
  frontMatterRead?: true;
}

/** Turn a read failure into the finding a damaged document carries. */
export function readFinding(f: TextFileErr): Finding {
  const hints: Record<string, Msg> = {
    binary: t('Restore the file from git (`git checkout -- <file>`) or let the agent rewrite it as Markdown.'),
    'not-utf8': t('Re-save the file as UTF-8.'),
    permission: t('Fix the file permissions so your user can read it.'),
    directory: t('Move the directory away; the system expects a file here.'),
    loop: t('Fix the symbolic link so it points at a real file.'),
    outside: t(
      'Point it at a file inside the workspace folder: a path from the repository (a config value, a link) is never followed out of it.',
    ),
    'too-large': t('A config file this large is not a config file: shorten it.'),
    'hard-link': t(
      'Give it a name of its own: copy it and move the copy over it (`cp FILE FILE.copy && mv FILE.copy FILE`), after checking what it holds.',
    ),
  };
  return finding('readable', 'block', cannotReadDocument(f), undefined, hints[f.kind]);
}

/** "Cannot read the document: …", one message per kind of failure (codes, sizes and paths as data). */
function cannotReadDocument(f: TextFileErr): Msg {
  switch (f.kind) {
    case 'missing':
      return t('Cannot read the document: file not found.');
    case 'permission':
      return t('Cannot read the document: permission denied: the file cannot be read.');
    case 'loop':
      return t('Cannot read the document: symbolic link loop: the path never reaches a file.');
    case 'directory':
      return t('Cannot read the document: a directory stands where a file is expected.');
    case 'not-a-file':
      return t('Cannot read the document: not a regular file (a pipe, socket or device is never opened).');
    case 'too-large':
      return t(
        'Cannot read the document: {0} bytes, over the {1}-byte limit for this file: it is not read.',
        f.size,
        f.limit ?? '',
      );
    case 'binary':
      return t('Cannot read the document: binary content (NUL bytes): not a text file.');
    case 'not-utf8':
      return t('Cannot read the document: not valid UTF-8 text.');
    case 'outside':
      return t('Cannot read the document: {0} leads outside the workspace folder, so it is not read.', f.rel ?? '');
    case 'hard-link':
      return t(
        'Cannot read the document: it has {0} hard links, so it may be a file from outside the workspace folder: it is not read.',
        f.links ?? '',
      );
    default:
      return t('Cannot read the document: cannot be read ({0}).', f.code ?? f.kind);
  }
}

/** "TAMPERED: <sidecar> cannot be read (…)": an attestation sidecar that cannot be read, one message per kind of failure. */
export function sidecarUnreadable(rel: string, f: TextFileErr): Msg {
  switch (f.kind) {
    case 'missing':
      return t('TAMPERED: {0} cannot be read (file not found).', rel);
    case 'permission':
      return t('TAMPERED: {0} cannot be read (permission denied: the file cannot be read).', rel);
    case 'loop':
      return t('TAMPERED: {0} cannot be read (symbolic link loop: the path never reaches a file).', rel);
    case 'directory':
      return t('TAMPERED: {0} cannot be read (a directory stands where a file is expected).', rel);
    case 'not-a-file':
      return t('TAMPERED: {0} cannot be read (not a regular file: a pipe, socket or device is never opened).', rel);
    case 'too-large':
      return t(
        'TAMPERED: {0} cannot be read ({1} bytes, over the {2}-byte limit for this file: it is not read).',
        rel,
        f.size,
        f.limit ?? '',
      );
    case 'binary':
      return t('TAMPERED: {0} cannot be read (binary content (NUL bytes): not a text file).', rel);
    case 'not-utf8':
      return t('TAMPERED: {0} cannot be read (not valid UTF-8 text).', rel);
    case 'outside':
      return t(
        'TAMPERED: {0} cannot be read ({1} leads outside the workspace folder, so it is not read).',
        rel,
        f.rel ?? '',
      );
    case 'hard-link':
      return t(
        'TAMPERED: {0} cannot be read (it has {1} hard links, so it may be a file from outside the workspace folder: it is not read).',
        rel,
        f.links ?? '',
      );
    default:
      return t('TAMPERED: {0} cannot be read ({1}).', rel, f.code ?? f.kind);
  }
}

export { CONFIG_MAX_BYTES };

function outsideFailure(rel: string): TextFile {
  return {
    ok: false,
    kind: 'outside',
    message: `${rel} leads outside the workspace folder, so it is not read`,
    rel,
    mtime: 0,
    size: 0,
  };
}

/**
 * Make `keys` of `obj` run `fill` when one of them is first read or written: until then they are
 * accessors, then plain properties again with what `fill` set (their values before it as defaults).
 */
function onFirstUse<T extends object>(obj: T, keys: ReadonlyArray<keyof T>, fill: () => void): void {
  const before = keys.map((k) => obj[k]);
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    keys.forEach((k, i) => {
      Object.defineProperty(obj, k, { value: before[i], writable: true, enumerable: true, configurable: true });
    });
    fill();
  };
  for (const k of keys) {
    Object.defineProperty(obj, k, {
      get: () => {
        run();
        return obj[k];
      },
      set: (v: T[typeof k]) => {
        run();
        obj[k] = v;
      },
      enumerable: true,
      configurable: true,
    });
  }
}

/** The tool's own files in a work tree (the checkpoint markers, its records, the hook log): never work in the git checks. */
export function isToolFile(rel: string): boolean {
  return (
    rel.startsWith('.claude/.checkpoint-ready') ||
    rel.startsWith('.claude/session-ledger/') ||
    rel.startsWith('.claude/log/')
  );
}

export class Workspace {
  readonly root: string;
  readonly options: EvaluateOptions;
  readonly now: number;
  private readonly reads = new Map<string, Promise<TextFile>>();
  private readonly kinds = new Map<string, Promise<PathKind>>();
  private readonly outlines = new Map<string, MdOutline>();
  /** True while the checks run for the first results (`onGitPending`): a check that needs git says it is pending. */
  gitDeferred = false;
  private gitInfo: Promise<GitInfo | null> | undefined;
  private gitRun: Promise<GitRun | null> | undefined;
  /** The turn the last document waits for before it is parsed (see `loadDoc`). */
  private parseTurn: Promise<void> = Promise.resolve();
  private realRoot: string | undefined;
  /** Relative paths of every state document read so far (excluded from "work" in git checks). */
  readonly stateFiles = new Set<string>();
  /** Files a reader found at its system's path and did not read, with why (put in words by `evaluate`, see `NotRead`). */
  readonly notRead: NotOurs[] = [];

  /**
   * `gitReader`: how git's facts are read (src/core/git/git.ts), which `evaluate` passes; the hooks,
   * which never ask git (`noGit`), pass none, so their part of the hook script holds no git code.
   */
  constructor(
    root: string,
    options: EvaluateOptions = {},
    private readonly gitReader?: GitReader,
  ) {
    this.root = path.resolve(root);
    this.options = options;
    this.now = options.now ?? Date.now();
  }

  abs(rel: string): string {
    return path.resolve(this.root, rel);
  }

  rel(abs: string): string {
    return path.relative(this.root, abs).split(path.sep).join('/');
  }

  /**
   * Is `rel` inside the root, links followed? A path from the repository (a configured ledger path,
   * a manifest store, a symbolic link, an extra path setting) is never followed out of the root.
   */
  async inside(rel: string): Promise<boolean> {
    const abs = this.abs(rel);
    if (!isInside(abs, this.root)) return false;
    const root = (this.realRoot ??= realpathOrSelf(this.root));
    // Synchronous, as the reads are (src/core/files/fsread.ts says why). The nearest existing ancestor's real path decides (a missing file cannot lead anywhere yet).
    const parts = path.relative(this.root, abs).split(path.sep).filter(Boolean);
    const real = (depth: number): string | null => {
      try {
        return realpathSync.native(depth === 0 ? this.root : path.join(this.root, ...parts.slice(0, depth)));
      } catch {
        return null;
      }
    };
    const whole = real(parts.length);
    if (whole !== null) return isInside(whole, root);
    // The paths that resolve are those down to some depth (a part that is missing, or no folder, ends
    // every longer one), so that depth is found by halving: going up a folder at a time took time with
    // the square of a path's depth (a manifest store of 100,000 folders held check minutes).
    let found = real(0);
    if (found === null) return true;
    let lo = 0;
    let hi = parts.length;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      const r = real(mid);
      if (r === null) hi = mid;
      else [lo, found] = [mid, r];
    }
    return isInside(found, root);
  }

  read(rel: string): Promise<TextFile> {
    let p = this.reads.get(rel);
    if (!p) {
      p = /\.ya?ml$/i.test(rel)
        ? this.readInside(rel, CONFIG_MAX_BYTES, true)
        : this.readInside(rel, this.options.maxBytes ?? DEFAULT_MAX_BYTES, false);
      this.reads.set(rel, p);
    }
    return p;
  }

  /**
   * `rel`'s text when it is at most `maxBytes` long, else its refusal (`too-large`), without reading a
   * byte of a larger file: for a scan over files no system names (git's changed paths), where most are
   * none of ours and a large one (a lock file, a build output) is skipped anyway. Not kept for `read`,
   * which reads past that limit.
   */
  readAtMost(rel: string, maxBytes: number): Promise<TextFile> {
    return this.reads.get(rel) ?? this.readInside(rel, maxBytes, true);
  }

  /** `rel`'s text, read only when it is inside the root; a file over `maxBytes` refused unread, or read that far. */
  private async readInside(rel: string, maxBytes: number, refuseLarger: boolean): Promise<TextFile> {
    return (await this.inside(rel))
      ? readTextFile(this.abs(rel), maxBytes, { refuseLarger, refuseHardLinks: true })
      : outsideFailure(rel);
  }

  /**
   * The Markdown outline of `text`, parsed once per evaluation: a reader's format test and its
   * `loadDoc` of the same file share one parse (readers only read an outline, never change it).
   */
  outline(text: string): MdOutline {
    let o = this.outlines.get(text);
    if (!o) {
      o = parseMarkdown(text);
      this.outlines.set(text, o);
    }
    return o;
  }

  kind(rel: string): Promise<PathKind> {
    let p = this.kinds.get(rel);
    if (!p) {
      p = pathKind(this.abs(rel));
      this.kinds.set(rel, p);
    }
    return p;
  }

  async exists(rel: string): Promise<boolean> {
    return (await this.kind(rel)) !== 'missing';
  }

  async list(rel: string): Promise<string[]> {
    return (await this.inside(rel)) ? listDir(this.abs(rel)) : [];
  }

  /** Record a file at `system`'s path that is not in its format: present, not read, and why. */
  notOurs(rel: string, system: SystemId, why: NotReadWhy): void {
    if (this.notRead.some((n) => n.path === rel && n.system === system)) return;
    this.notRead.push({ path: rel, system, why });
  }

  /**
   * Start git's one run now, when every rule runs with git and `needed()` says a check will ask it: an
   * evaluation calls it once a system is found, so git works while the other files are read and parsed.
   * Not before the first results (`onGitPending`), which come without git. `needed` is asked last: it
   * may read a document's text, which without every rule is parsed only when asked for. What counts as
   * work is decided when the facts are asked for (`git`), once every state file is known.
   */
  startGit(needed: () => boolean): void {
    const o = this.options;
    if (this.gitRun || o.noGit || o.onGitPending || !this.gitReader || !allRules(o) || !needed()) return;
    this.gitRun = this.gitReader.run(this.root, o.gitMaxAgeMs).catch(() => null);
  }

  /** Why `git()` gave null: read once it has settled ('not-a-repository' without a git reader). */
  gitAbsence(): GitAbsence {
    if (this.options.noGit === 'restricted') return 'restricted';
    return this.gitReader?.absence?.(this.root) ?? 'not-a-repository';
  }

  /** Git facts, read once; state files and the tool's own files are not counted as work. */
  git(): Promise<GitInfo | null> {
    if (this.options.noGit) return Promise.resolve(null);
    const reader = this.gitReader;
    if (!reader) throw new Error('git was asked of a workspace read without git (noGit) or a git reader');
    if (!this.gitInfo) {
      const started = (this.gitRun ??= reader.run(this.root, this.options.gitMaxAgeMs));
      // What `hooks install` changed is no work either: its scripts and its edits, while they stand as it made them.
      this.gitInfo = Promise.all([started, installChanges(this.root)]).then(([run, byInstall]) =>
        run
          ? reader.info(
              this.root,
              run,
              (rel, head) =>
                this.stateFiles.has(rel) ||
                !!this.options.otherStateFile?.(rel) ||
                isToolFile(rel) ||
                byInstall(rel, head),
            )
          : null,
      );
    }
    return this.gitInfo;
  }

  /**
   * Read a document at `rel` and parse it with `parse`. A document that cannot be read (binary,
   * not UTF-8, a directory, a permission error …) comes back with a blocking `readable` finding
   * and no sections. A file larger than the read limit is parsed from its first bytes and carries
   * a `size` finding. `parse` exceptions become findings too: nothing throws out of here.
   */
  async loadDoc(
    rel: string,
    system: SystemId,
    role: DocRole,
    parse: (text: string, outline: MdOutline) => ParsedContent,
    /** What the reader records in the document's meta besides its parse (kept also when the parse fails or the file cannot be read). */
    extraMeta: Record<string, unknown> = {},
  ): Promise<StateDoc> {
    this.stateFiles.add(rel);
    const f = await this.read(rel);
    const doc: StateDoc = {
      system,
      path: this.abs(rel),
      relPath: rel,
      role,
      sections: [],
      meta: { ...extraMeta },
      mtime: f.mtime,
      hash: '',
      size: f.size,
      lineCount: 0,
      text: '',
      findings: [],
    };
    // Without every rule a hash is taken only when something asks for it (S1's attestation at session
    // start), so node:crypto is not even loaded otherwise; not enumerable, so a copy of the document
    // (`{ ...doc }`, S0's ledger without its markers) hashes nothing.
    if (f.ok && allRules(this.options)) doc.hash = f.hash;
    else if (f.ok) Object.defineProperty(doc, 'hash', { get: () => f.hash, enumerable: false, configurable: true });
    if (!f.ok) {
      doc.findings.push(readFinding(f));
      return doc;
    }
    if (f.truncated) {
      doc.findings.push(
        finding(
          'size',
          'warn',
          t('The file is {0} bytes; only the first {1} bytes were read.', f.size, f.bytes.length),
          undefined,
          t('A state file this large defeats its purpose: move history out of it.'),
        ),
      );
    }
    const content = f.text;
    const fill = (): void => {
      // Secrets are masked here, before parsing: no surface built from the model can show a raw value.
      const { text, hits } = maskSecrets(content);
      doc.text = text;
      doc.secrets = hits;
      doc.lineCount = lineTotal(text);
      try {
        const outline = this.outline(text);
        const parsed = parse(text, outline);
        doc.sections = parsed.sections;
        doc.meta = { ...parsed.meta, ...extraMeta };
        // A Markdown document's front matter is YAML, whatever reads the document: what YAML decodes from it is masked too.
        const fm = parsed.frontMatterRead || /\.ya?ml$/i.test(rel) ? null : frontMatterFound(outline);
        const found = [...(parsed.secrets ?? []), ...(fm?.secrets ?? [])];
        if (found.length) doc.secrets = [...hits, ...found];
        const cuts = [...(parsed.cuts ?? []), ...(fm?.cuts ?? [])];
        if (cuts.length) doc.text = withLineCuts(text, cuts);
      } catch (err) {
        doc.findings.push(
          finding('parse', 'warn', t('The document could not be parsed: {0}', (err as Error)?.message ?? String(err))),
        );
      }
    };
    // Without rules a caller needs which documents are there, rarely what they say: the text is
    // masked and parsed when a reader first looks at it (S0's older ledgers, S2's manifest and PLAN
    // pointer), and a document nobody looks at is never parsed.
    if (!allRules(this.options))
      onFirstUse(doc, ['text', 'secrets', 'lineCount', 'sections', 'meta', 'findings'], fill);
    else {
      // With git at work, one document is parsed per turn of the event loop: between two, git's last
      // step is seen to end and its next one starts, so git's steps run while the files are parsed.
      if (this.gitRun) await (this.parseTurn = this.parseTurn.then(nextTurn));
      fill();
    }
    return doc;
  }
}

/** A promise settled on a later turn of the event loop, after the I/O that is ready by then. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
