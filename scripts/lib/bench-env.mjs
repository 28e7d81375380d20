/**
 * The environment of every process a benchmark measures, `node -e 0` included: this one without the
 * variables that change what Node itself does at start-up. NODE_EXTRA_CA_CERTS makes Node load a CA
 * bundle before it runs anything (on this project's build machines: 85.6 M instructions for
 * `node -e 0` without it, 500.8 M with it), which would hide what the tool costs in a ratio to
 * `node -e 0`; NODE_OPTIONS can preload code. Most users' machines set neither.
 */
export const DROPPED = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];
export const TIMED_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !DROPPED.includes(k)));
