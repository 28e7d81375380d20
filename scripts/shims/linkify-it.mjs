// Bundled in place of `linkify-it`: markdown-it builds one in its constructor, and src/core/markdown/markdown.ts
// runs with `linkify: false` and without the inline pass, so it never asks it anything.
export default class LinkifyIt {
  test() {
    return false;
  }
  pretest() {
    return false;
  }
  match() {
    return null;
  }
  matchAtStart() {
    return null;
  }
  set() {
    return this;
  }
  add() {
    return this;
  }
  tlds() {
    return this;
  }
}
