import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ActionName } from '../protocol.js';

/** A message shown at the bottom of the page: the outcome of an action. */
export interface Toast {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

/** What every view of a run may do: take an action and tell the user how it went. */
export interface RunActions {
  /** Posts the action; on failure shows `CODE: message` and resolves false. */
  act(action: ActionName, input: Record<string, unknown>, done?: string): Promise<boolean>;
  /** The run accepts the action now. */
  allowed(action: ActionName): boolean;
  /** Runs of this source can ever take the action; the page shows no control for the others. */
  offered(action: ActionName): boolean;
  /** Opens one of the run's dialogs. */
  open(dialog: DialogRequest): void;
}

/** A dialog a view asks for. */
export type DialogRequest =
  | { kind: 'task'; taskId: string }
  | { kind: 'createTask' }
  | { kind: 'send'; to?: string }
  | { kind: 'requestChanges'; taskId: string }
  | { kind: 'reason'; action: 'block' | 'cancel'; taskId: string }
  | { kind: 'reassign'; taskId: string }
  | { kind: 'stopRun' }
  | { kind: 'help' };

/** The actions of the run on screen. */
export const RunActionsContext = createContext<RunActions | undefined>(undefined);

/** The actions of the run on screen; views are only rendered inside a run. */
export function useRunActions(): RunActions {
  const actions = useContext(RunActionsContext);
  if (actions === undefined) throw new Error('useRunActions outside a run view');
  return actions;
}
