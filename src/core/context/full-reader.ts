/**
 * The YAML reader's answer for `.agents.yml`, for the configs the light reader is unsure of. The
 * CLI's core registers it (it holds the YAML reader); the status line's layer never loads that
 * reader, so there a question for it is a NeedsFullReader, and the whole CLI answers the command.
 * No imports: the hook script's entry loads this module on every run.
 */

/** What the YAML reader says of `.agents.yml` text for S0 (systems/s0/reader's `s0ConfigOfText`). */
export type FullConfigReader = (text: string) => 'on' | 'off' | 'broken';

let registered: (() => Promise<FullConfigReader>) | undefined;

export function useFullConfigReader(load: () => Promise<FullConfigReader>): void {
  registered = load;
}

/** A config only the YAML reader can answer for, and none is registered here. */
export class NeedsFullReader extends Error {}

/** The registered YAML reader, loaded; NeedsFullReader when there is none. */
export async function fullConfigReader(what: string): Promise<FullConfigReader> {
  if (!registered) throw new NeedsFullReader(`${what} needs the YAML reader`);
  return registered();
}
