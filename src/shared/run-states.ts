// A run's states and the moves between them: the one table that says which status may follow
// which. The runs repository refuses any other move, whoever asks for it.
import { type RunStatus, endedRunStatuses as endedStatuses } from './contract';

/**
 * queued → running when the runner claims it, or cancelled before it starts. waiting → queued when
 * a person allows it to start, → running when its agent's question is answered, or to an end (a
 * run waiting to start can only be cancelled; one waiting mid-work ends however its agent does).
 */
export const runMoves: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  queued: ['running', 'cancelled'],
  waiting: ['queued', 'running', ...endedStatuses],
  running: ['waiting', ...endedStatuses],
  succeeded: [],
  failed: [],
  cancelled: [],
  timed_out: [],
  interrupted: [],
};

export const isEnded = (status: RunStatus): boolean => runMoves[status].length === 0;

export const canMove = (from: RunStatus, to: RunStatus): boolean => runMoves[from].includes(to);

/** The statuses a run may be in to move to `to`. */
export const movesInto = (to: RunStatus): RunStatus[] => (Object.keys(runMoves) as RunStatus[]).filter((from) => canMove(from, to));
