// Bundled in place of `entities` (77 KB of HTML entity tables). markdown-it decodes entities only
// in its inline pass and in link reference definitions, and src/core/markdown/markdown.ts switches the inline
// pass off and reads neither: the block structure and raw text it reads do not depend on them.
export const decodeHTML = (s) => s;
export const decodeHTMLStrict = (s) => s;
