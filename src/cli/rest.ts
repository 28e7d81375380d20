/**
 * The hook script's part for the commands the hooks and `status` never run: installing hooks,
 * starting a system, the write actions, and the meter's own commands when the meter hands one to the
 * core (./meter runs them otherwise). The core takes each from here when it runs
 * (scripts/lib/build.mjs); every module the core holds, this part takes from the core.
 */
export * as hooks from './commands/hooks';
export * as init from './commands/init';
export * as enableLedger from './commands/enable-ledger';
export * as attest from './commands/attest';
export * as compactState from './commands/compact-state';
export * as rotateLog from './commands/rotate-log';
// The meter's commands, when the meter hands one on (its help, a usage error, an .agents.yml only the YAML reader reads).
export * as context from './commands/context';
export * as statusline from './commands/statusline';
// The manuals: help and usage errors.
export * as help from './help';
