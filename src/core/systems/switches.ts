/**
 * The systems that their own configuration can switch off (`switchedOff` in their facts), each with
 * its cheap switch: a read of its config without the full parsers, for the status line, `context`
 * and the reminder hook. A system not listed is on whenever it is present.
 */
import type { SystemId } from '../model/model';
import { ledgerOn } from './s0/switch';

export const SWITCHES: Readonly<Partial<Record<SystemId, (root: string) => Promise<boolean>>>> = {
  S0: ledgerOn,
};
