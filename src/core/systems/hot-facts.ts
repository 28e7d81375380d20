/**
 * How a system's facts are put together from its hot facts (HotFacts in ./facts): a module of its own,
 * so that the systems' facts files, which call it, do not import ./facts, which imports them.
 */
import type { HotFacts, SystemFacts } from './facts';

/**
 * A system's facts: its hot facts and the rest, as one object. Its callers mark each call pure
 * (`/* @__PURE__ *\/ withHot(…)`): a bundle that takes a system's hot facts alone then leaves the
 * rest out, which a spread of the hot facts into a literal would keep (esbuild keeps an object literal
 * that spreads another, used or not).
 */
export function withHot(hot: HotFacts, rest: Omit<SystemFacts, keyof HotFacts>): SystemFacts {
  return { ...hot, ...rest };
}
