// Chat with an instance (#/chat/<instanceId>[/<threadId>]): its chats (ChatList.tsx) and the thread's
// conversation (Conversation.tsx). Each prompt continues the same thread, so the agent resumes its
// own session and remembers. On a narrow screen the conversation takes the width and the chats open
// from the "Chats" button.
import { useCallback, useRef, useState } from 'react';
import { Empty } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { ChatList, chatListId } from './ChatList';
import { Conversation } from './Conversation';

export function Chat({ instanceId, threadId }: { instanceId: string | undefined; threadId: string | undefined }) {
  const { instances, chats } = useApp();
  const [listOpen, setListOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const opened = useRef(listOpen);
  opened.current = listOpen;
  const closeList = useCallback(() => {
    // Only a panel that was open gives focus back: on a wide screen the list is simply there.
    if (opened.current) toggle.current?.focus();
    setListOpen(false);
  }, []);
  const instance = instances.find((each) => each.id === instanceId) ?? (instanceId ? undefined : (instances.find((each) => each.isDefault) ?? instances[0]));
  const count = instance ? chats[instance.id]?.length : undefined;
  return (
    <section aria-labelledby="chat-title">
      <div className="bar chat-head">
        <h2 id="chat-title">Chat</h2>
        {instance && (
          <button ref={toggle} type="button" className="chats-toggle" aria-expanded={listOpen} aria-controls={chatListId} onClick={() => (listOpen ? closeList() : setListOpen(true))}>
            Chats{count === undefined ? '' : ` (${count})`}
          </button>
        )}
      </div>
      {!instance ? (
        instances.length === 0 ? <div className="hint">Loading…</div> : <Empty title="No such instance">It may have been deleted.</Empty>
      ) : (
        <div className="chat">
          <ChatList instance={instance} threadId={threadId} open={listOpen} onClose={closeList} />
          <Conversation key={`${instance.id}/${threadId ?? ''}`} instance={instance} threadId={threadId} />
        </div>
      )}
    </section>
  );
}
