// One pending request, the same wherever it is shown (Needs you, the run page, the chat): what is
// asked (the command, the file and its diff, the URL, the question and its options), for which
// instance and run, when it expires, and Allow / Deny with an optional note; a question has an
// answer box, its options as quick choices, and sends the answer as it allows; its decision links
// for a phone (DecisionLinks).
import { useId, useState } from 'react';
import type { Approval } from '../../../../shared/contract';
import { ApiError } from '../../lib/api';
import { useApp } from '../../lib/app-context';
import { ErrorLine, Time, useAction } from '../../ui/widgets';
import { instanceLabel } from '../instances/instance-label';
import { DecisionLinks } from './DecisionLinks';

export const kindWords: Record<Approval['kind'], string> = {
  run: 'Start a run',
  tool: 'Use a tool',
  question: 'A question',
};

/** What the note does: before a run no agent runs yet, so it stays with the run's record. */
export function notePlaceholder(kind: Approval['kind']): string {
  if (kind === 'question') return 'Anything else the agent should know';
  return kind === 'run' ? 'Why (kept with the run)' : 'Why; the agent is told';
}

function Detail({ approval }: { approval: Approval }) {
  const { text, command, path, diff, url, tool, input } = approval.detail;
  // The tool's raw input only when nothing more readable says what it will do.
  const rawInput = input !== undefined && !command && !path && !url ? JSON.stringify(input, null, 2) : undefined;
  return (
    <div className="approval-detail">
      {text !== approval.title && <p style={{ whiteSpace: 'pre-wrap' }}>{text}</p>}
      {tool && <div>Tool <code>{tool}</code></div>}
      {command && <pre aria-label="Command">{command}</pre>}
      {path && <div>File <code>{path}</code></div>}
      {diff && <pre aria-label="Changes">{diff}</pre>}
      {url && <div>URL <code>{url}</code></div>}
      {rawInput && <pre aria-label="Input">{rawInput}</pre>}
    </div>
  );
}

export function ApprovalRequest({ approval, showRun = true }: { approval: Approval; showRun?: boolean }) {
  const { instances, decideApproval, loadApprovals, toast } = useApp();
  const [answer, setAnswer] = useState('');
  const [note, setNote] = useState('');
  const [answerProblem, setAnswerProblem] = useState<string>();
  const action = useAction();
  const ids = useId();
  const question = approval.kind === 'question';
  const instance = instances.find((each) => each.id === approval.instanceId);

  const decide = async (decision: 'allow' | 'deny') => {
    if (question && decision === 'allow' && answer.trim() === '') return setAnswerProblem('Type an answer, or pick one of the choices.');
    setAnswerProblem(undefined);
    const body = { decision, ...(question && decision === 'allow' && { answer: answer.trim() }), ...(note.trim() !== '' && { note: note.trim() }) };
    const decided = await action.run(async () => {
      try {
        return await decideApproval(approval.id, body);
      } catch (error) {
        // Decided elsewhere meanwhile, or expired: said in a toast, since this request then goes.
        if (error instanceof ApiError && (error.code === 'already_decided' || error.code === 'expired')) {
          toast('failure', error.message);
          await loadApprovals();
          return undefined;
        }
        throw error;
      }
    });
    if (decided) toast('success', decision === 'allow' ? (question ? 'Answer sent.' : 'Allowed.') : 'Denied.');
  };

  return (
    <article className="card approval" aria-labelledby={`${ids}-title`}>
      <div className="bar">
        <strong id={`${ids}-title`}>{approval.title}</strong>
        <span className="badge pending">{kindWords[approval.kind]}</span>
      </div>
      <div className="hint">
        {instance ? instanceLabel(instance) : approval.instanceId}
        {showRun && <> · <a href={`#/runs/${approval.runId}`}>See its run</a></>}
        {' · '}asked <Time iso={approval.createdAt} /> · expires <Time iso={approval.expiresAt} />
      </div>
      <Detail approval={approval} />
      {question && (
        <div className="field">
          <label htmlFor={`${ids}-answer`}>Answer</label>
          {approval.detail.options && approval.detail.options.length > 0 && (
            <div className="row" role="group" aria-label="Choices">
              {approval.detail.options.map((option) => (
                <button key={option} type="button" aria-pressed={answer === option} onClick={() => { setAnswer(option); setAnswerProblem(undefined); }}>{option}</button>
              ))}
            </div>
          )}
          <textarea id={`${ids}-answer`} value={answer} aria-invalid={answerProblem ? true : undefined} aria-describedby={answerProblem ? `${ids}-problem` : undefined} onChange={(event) => { setAnswer(event.target.value); setAnswerProblem(undefined); }} />
          {answerProblem && <div className="error" role="alert" id={`${ids}-problem`}>{answerProblem}</div>}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${ids}-note`}>Note (optional)</label>
        <input id={`${ids}-note`} value={note} onChange={(event) => setNote(event.target.value)} placeholder={notePlaceholder(approval.kind)} />
      </div>
      <ErrorLine message={action.error?.message} />
      <div className="bar">
        <button className="primary" disabled={action.busy} onClick={() => void decide('allow')}>{question ? 'Send answer' : 'Allow'}</button>
        <button className="danger" disabled={action.busy} onClick={() => void decide('deny')}>Deny</button>
      </div>
      <DecisionLinks approval={approval} />
    </article>
  );
}

/** A run's pending requests, where its conversation is shown (the run page, the chat). */
export function RunRequests({ runIds }: { runIds: string[] }) {
  const { approvals } = useApp();
  const shown = (approvals ?? []).filter((approval) => runIds.includes(approval.runId));
  if (shown.length === 0) return null;
  return (
    <div aria-label="Waiting for you" role="region">
      {shown.map((approval) => <ApprovalRequest key={approval.id} approval={approval} showRun={runIds.length > 1} />)}
    </div>
  );
}
