// One chat's conversation: the instance it is with (its state as Instances says it, a remote
// Steward that is away said the same way), the turns (virtualized past a few dozen, following the
// newest while the reader is at the bottom, tool calls collapsed), prompts not yet given to the
// agent, what its runs wait for a person to decide, how its newest run stands, and the composer.
import { useEffect, useRef, useState } from 'react';
import type { Instance, Run } from '../../../../shared/contract';
import { Composer } from './Composer';
import { Transcript } from '../runs/Transcript';
import { Avatar, Badge, Empty, statusText } from '../../ui/widgets';
import { RunRequests } from '../approvals/ApprovalRequest';
import { useApp } from '../../lib/app-context';
import { HostBadge } from '../instances/HostBadge';
import { isRemote } from '../instances/instance-label';
import { RemoteNotice } from '../instances/RemoteNotice';

/** How the thread's newest run stands, when that is worth a line: waiting, working, failed. */
function LatestRun({ run, instance }: { run: Run | undefined; instance: Instance }) {
  const { setInstanceRunning } = useApp();
  if (!run) return null;
  if (run.status === 'queued') {
    const why = instance.status === 'stopped' ? `${instance.name} is stopped.` : instance.status === 'provisioning' ? `${instance.name} is being checked.` : 'Waiting for its turn…';
    return (
      <div className="hint" role="status">
        {why} {instance.status === 'stopped' && <button onClick={() => void setInstanceRunning(instance.id, true)}>Start it</button>} <a href={`#/runs/${run.id}`}>Run details</a>
      </div>
    );
  }
  if (run.status === 'waiting') return <div className="hint" role="status">{instance.name} is waiting for you. <a href={`#/runs/${run.id}`}>Run details</a></div>;
  if (run.status === 'running') return <div className="hint" role="status">{instance.name} is working… <a href={`#/runs/${run.id}`}>Run details</a></div>;
  if (run.status !== 'succeeded') return <div className="error" role="alert">The run {statusText(run.status)}{run.error ? `: ${run.error}` : '.'} <a href={`#/runs/${run.id}`}>Run details</a></div>;
  return null;
}

/** The remote Steward a remote instance runs on, once the remotes are loaded. */
function useRemoteOf(instance: Instance) {
  const { remotes, loadRemotes } = useApp();
  const remote = isRemote(instance);
  useEffect(() => {
    if (remote) void loadRemotes().catch(() => undefined);
  }, [remote, loadRemotes]);
  return remote ? remotes?.find((each) => each.id === instance.location) : undefined;
}

export function Conversation({ instance, threadId }: { instance: Instance; threadId: string | undefined }) {
  const { threads, runs, loadThread, sendPrompt, loadChats, navigate } = useApp();
  const [missing, setMissing] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const remote = useRemoteOf(instance);
  // Its Steward is away: said as Instances says it (its state, why, since when), not as this instance's error.
  const away = remote !== undefined && remote.state !== 'connected';
  useEffect(() => {
    setMissing(false);
    if (threadId) loadThread(threadId).catch(() => setMissing(true));
  }, [threadId, loadThread]);
  const messages = threadId ? threads[threadId] : [];
  const threadRuns = threadId ? runs.filter((run) => run.threadId === threadId) : [];
  // Prompts not yet given to the agent (the runner writes a prompt into the thread when it starts it).
  const waiting = threadRuns.filter((run) => run.status === 'queued').reverse();
  useEffect(() => {
    // Keeps the composer in view. A block body: Chromium's scrollIntoView returns a promise, which an effect must not.
    void end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [messages?.length, waiting.length]);
  const send = async (prompt: string) => {
    const run = await sendPrompt(instance.id, prompt, threadId);
    if (!threadId) {
      navigate(`/chat/${instance.id}/${run.threadId}`);
      void loadChats(instance.id).catch(() => undefined);
    }
  };
  if (missing) return <Empty title="No such chat">It may have been deleted. Start a new one.</Empty>;
  return (
    <div className="conversation">
      <div className="bar conversation-head">
        <Avatar url={instance.avatarUrl} name={instance.name} />
        <strong className="instance-name" title={instance.name}>{instance.name}</strong>
        <Badge status={away ? remote.state : instance.status} />
        <HostBadge instance={instance} />
        {instance.imageTag && <code>{instance.imageTag}</code>}
      </div>
      {away && <RemoteNotice remote={remote} instancesBelow={false} />}
      {instance.status === 'error' && !away && (
        <div className="card error" role="alert">
          {instance.name} is not ready: {instance.statusReason} {isRemote(instance) ? <a href="#/settings">Remote Stewards in Settings</a> : <a href="#/instances">Edit its agent</a>}
        </div>
      )}
      {!messages ? (
        <div className="hint">Loading…</div>
      ) : messages.length === 0 && waiting.length === 0 ? (
        <Empty title={threadId ? 'Nothing said yet' : `A new chat with ${instance.name}`}>Each message continues this conversation: the agent remembers what was said before.</Empty>
      ) : (
        <Transcript messages={messages} label="Conversation" userName="You" searchLabel="Search this chat" instanceId={instance.id} />
      )}
      {waiting.map((run) => (
        <div key={run.id} className="message user pending">
          <span className="role">You · waiting</span>
          {run.prompt}
        </div>
      ))}
      <RunRequests runIds={threadRuns.map((run) => run.id)} />
      <LatestRun run={threadRuns[0]} instance={instance} />
      <div ref={end} />
      <Composer onSend={send} label="Message" />
    </div>
  );
}
