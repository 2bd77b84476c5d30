// The prompt box of a chat: Enter sends, Shift+Enter starts a new line; the text stays when
// sending fails, so nothing typed is lost, and why it failed is said with its times in local time.
import { type KeyboardEvent, useState } from 'react';
import { useAction } from '../../ui/widgets';
import { TimedText } from './TimedText';

export function Composer({ onSend, label = 'Message', placeholder, sendLabel = 'Send' }: { onSend: (text: string) => Promise<unknown>; label?: string; placeholder?: string; sendLabel?: string }) {
  const [text, setText] = useState('');
  const action = useAction();
  const send = async () => {
    const prompt = text.trim();
    if (!prompt || action.busy) return;
    const sent = await action.run(async () => {
      await onSend(prompt);
      return true;
    });
    if (sent) setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // While an input method composes, Enter confirms the composition, not the message.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };
  return (
    <form className="composer" onSubmit={(event) => { event.preventDefault(); void send(); }}>
      <textarea aria-label={label} value={text} placeholder={placeholder ?? 'Type a message — Enter sends, Shift+Enter for a new line'} onChange={(event) => setText(event.target.value)} onKeyDown={onKeyDown} rows={3} />
      <div className="bar" style={{ marginTop: 6, marginBottom: 0 }}>
        {action.error && <div className="error" role="alert"><TimedText text={action.error.message} /></div>}
        <span className="spacer" />
        <button className="primary" type="submit" disabled={action.busy || text.trim() === ''}>{sendLabel}</button>
      </div>
    </form>
  );
}
