// Chat with an instance (#/chat/<instanceId>[/<threadId>]): its chats on the left (first prompt,
// last activity; "New chat"), the thread's turns on the right, growing live, and a composer. Each
// prompt continues the same thread, so the agent resumes its own session and remembers. What a run of
// the thread waits for a person to decide is shown where the conversation is.
import { useEffect, useRef, useState } from 'react';
import type { Instance, Run } from '../../../../shared/contract';
import { Composer } from './Composer';
import { Turns } from '../runs/Turns';
import { Avatar, Badge, Empty, Time, statusText } from '../../ui/widgets';
import { RunRequests } from '../approvals/ApprovalRequest';
import { useApp } from '../../lib/app-context';
import { HostBadge } from '../instances/HostBadge';
import { instanceLabel, isRemote } from '../instances/instance-label';

const ellipsis = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function ChatList({ instance, threadId }: { instance: Instance; threadId: string | undefined }) {
  const { instances, chats, loadChats, navigate } = useApp();
  useEffect(() => {
    void loadChats(instance.id).catch(() => undefined);
  }, [instance.id, loadChats]);
  const list = chats[instance.id];
  return (
    <aside className="chat-list" aria-label="Chats">
      <div className="field">
        <label htmlFor="chat-instance">Instance</label>
        <select id="chat-instance" value={instance.id} onChange={(event) => navigate(`/chat/${event.target.value}`)}>
          {instances.map((each) => <option key={each.id} value={each.id}>{instanceLabel(each)}</option>)}
        </select>
      </div>
      <button className="primary" onClick={() => navigate(`/chat/${instance.id}`)}>New chat</button>
      <nav aria-label={`Chats with ${instance.name}`}>
        {list === undefined && <div className="hint">Loading…</div>}
        {list?.length === 0 && <div className="hint">No chats yet.</div>}
        {list?.map((chat) => (
          <a key={chat.id} href={`#/chat/${instance.id}/${chat.id}`} aria-current={chat.id === threadId ? 'page' : undefined}>
            <span>{ellipsis(chat.firstPrompt ?? 'New chat')}</span>
            <span className="hint"><Time iso={chat.lastActivityAt} /></span>
          </a>
        ))}
      </nav>
    </aside>
  );
}

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

function Conversation({ instance, threadId }: { instance: Instance; threadId: string | undefined }) {
  const { threads, runs, loadThread, sendPrompt, loadChats, navigate } = useApp();
  const [missing, setMissing] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    setMissing(false);
    if (threadId) loadThread(threadId).catch(() => setMissing(true));
  }, [threadId, loadThread]);
  const messages = threadId ? threads[threadId] : [];
  const threadRuns = threadId ? runs.filter((run) => run.threadId === threadId) : [];
  // Prompts not yet given to the agent (the runner writes a prompt into the thread when it starts it).
  const waiting = threadRuns.filter((run) => run.status === 'queued').reverse();
  useEffect(() => {
    // A block body: Chromium's scrollIntoView returns a promise, which an effect must not.
    void end.current?.scrollIntoView?.({ block: 'end' });
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
      <div className="bar">
        <Avatar url={instance.avatarUrl} name={instance.name} />
        <strong>{instance.name}</strong>
        <Badge status={instance.status} />
        <HostBadge instance={instance} />
        {instance.imageTag && <code>{instance.imageTag}</code>}
      </div>
      {instance.status === 'error' && (
        <div className="card error" role="alert">
          {instance.name} is not ready: {instance.statusReason} {isRemote(instance) ? <a href="#/settings">Remote Stewards in Settings</a> : <a href="#/instances">Edit its agent</a>}
        </div>
      )}
      {!messages ? (
        <div className="hint">Loading…</div>
      ) : messages.length === 0 && waiting.length === 0 ? (
        <Empty title={threadId ? 'Nothing said yet' : `A new chat with ${instance.name}`}>Each message continues this conversation: the agent remembers what was said before.</Empty>
      ) : (
        <Turns messages={messages} label="Conversation" userName="You" />
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

export function Chat({ instanceId, threadId }: { instanceId: string | undefined; threadId: string | undefined }) {
  const { instances } = useApp();
  const instance = instances.find((each) => each.id === instanceId) ?? (instanceId ? undefined : (instances.find((each) => each.isDefault) ?? instances[0]));
  return (
    <section aria-labelledby="chat-title">
      <h2 id="chat-title">Chat</h2>
      {!instance ? (
        instances.length === 0 ? <div className="hint">Loading…</div> : <Empty title="No such instance">It may have been deleted.</Empty>
      ) : (
        <div className="chat">
          <ChatList instance={instance} threadId={threadId} />
          <Conversation key={`${instance.id}/${threadId ?? ''}`} instance={instance} threadId={threadId} />
        </div>
      )}
    </section>
  );
}
