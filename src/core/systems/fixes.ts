/**
 * Mechanical fixes of single findings, as line edits a caller shows before applying them (the
 * VS Code quick fixes): the shared line edits, and each system's own fixes from its home.
 */
export { applyLineEdits, deleteLines, type LineEdit } from './line-edit';
export { timestampFix } from './s0/fixes';
export { branchHeadFix } from './s3/fixes';
