/**
 * The names of the `yaml` library the code takes at run time (through `yamlLib()`, or imported, as S0's
 * "Enable the ledger" does). The hook script's YAML part exports these and no other (scripts/lib/build.mjs),
 * so the library's code that none of them reaches stays out of the script; `yamlLib()` is typed to them.
 */
export const YAML_NAMES = [
  'Document',
  'LineCounter',
  'Parser',
  'Schema',
  'YAMLParseError',
  'isAlias',
  'isMap',
  'isPair',
  'isScalar',
  'isSeq',
  'parseDocument',
] as const;
