// Bundled in place of `punycode.js`: markdown-it uses it to normalise link hosts, which src/core/markdown/markdown.ts never reads.
const same = (s) => s;
export default { toASCII: same, toUnicode: same, encode: same, decode: same };
