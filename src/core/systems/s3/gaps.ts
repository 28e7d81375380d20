/**
 * The gaps S3's checks name (see `Check.gaps`): a handoff field that is missing or still template
 * text, and a part a Log entry lacks. The template check's finding names them, and so does the warning
 * that judges the same field (`gates`, `branch-head`, `pending-recorded`, `log-entry`): the blocking
 * finding alone is reported.
 */
export const S3_GAP = {
  branch: 'branch',
  head: 'head',
  gates: 'gates',
  blocked: 'blocked',
} as const;

/** The gap of a part (`Done`, `Docs touched` …) of the Log entry whose heading is on `line`. */
export function logPartGap(line: number, part: string): string {
  return `log ${line} ${part}`;
}
