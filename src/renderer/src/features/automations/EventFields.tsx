// The fields of an event trigger in the When section: a folder (watch), a repository (git), an IMAP
// mailbox (mail) or a feed, each with the contract's own descriptions as help. Passwords and tokens
// are stored secrets picked by name; a watched folder the instance's sandbox cannot read is said.
import type { ReactNode } from 'react';
import { FeedTrigger, GitTrigger, type Instance, MailTrigger, WatchTrigger } from '../../../../shared/contract';
import { Field } from '../../ui/widgets';
import { SecretPicker } from '../settings/SecretPicker';
import { NewSecret } from '../settings/NewSecret';
import { unreadableFolderWords } from './sandbox-read';
import { type FileChange, type WhenDraft, fileChangeWords } from './when-draft';

type Shape = Record<string, { description?: string | undefined }>;
const help = (schema: { shape: unknown }, key: string): string | undefined => {
  const words = (schema.shape as Shape)[key]?.description;
  return words ? `${words.replace(/\.$/, '')}.` : undefined;
};

export interface EventFieldsProps {
  draft: WhenDraft;
  change: (next: WhenDraft) => void;
  /** The form's or the server's problem with a field, by key (watch.path). */
  problem: (key: string) => string | undefined;
  instance: Instance | undefined;
}

const secretsWords = 'Secrets are stored encrypted (Settings → Secrets); store one here without leaving the form.';

function WatchFields({ draft, change, problem, instance }: EventFieldsProps) {
  const { watch } = draft;
  const set = (next: Partial<WhenDraft['watch']>) => change({ ...draft, watch: { ...watch, ...next } });
  const unreadable = unreadableFolderWords(watch.path, instance);
  return (
    <>
      <Field label="Folder" error={problem('watch.path')} warning={unreadable} hint={help(WatchTrigger, 'path')}>
        <input className="mono" value={watch.path} placeholder="~/Invoices" onChange={(event) => set({ path: event.target.value })} />
      </Field>
      <Field label="Files" error={problem('watch.glob')} hint={help(WatchTrigger, 'glob')}>
        <input className="mono" value={watch.glob} onChange={(event) => set({ glob: event.target.value })} />
      </Field>
      <fieldset className="choices">
        <legend>Changes</legend>
        {(Object.keys(fileChangeWords) as FileChange[]).map((each) => (
          <label key={each}>
            <input type="checkbox" checked={watch.on.includes(each)} onChange={(event) => set({ on: event.target.checked ? [...watch.on, each] : watch.on.filter((other) => other !== each) })} />
            {fileChangeWords[each]}
          </label>
        ))}
        {problem('watch.on') && <div className="error" role="alert">{problem('watch.on')}</div>}
      </fieldset>
      <Field label="Runs" error={problem('watch.per')}>
        <select value={watch.per} onChange={(event) => set({ per: event.target.value as 'file' | 'batch' })}>
          <option value="file">One run per file</option>
          <option value="batch">One run per batch of changes</option>
        </select>
      </Field>
      <div className="grid-2">
        <Field label="Debounce (milliseconds)" error={problem('watch.debounceMs')} hint={help(WatchTrigger, 'debounceMs')}>
          <input inputMode="numeric" value={watch.debounceMs} onChange={(event) => set({ debounceMs: event.target.value })} />
        </Field>
        <Field label="Settle time (milliseconds)" error={problem('watch.settleMs')} hint={help(WatchTrigger, 'settleMs')}>
          <input inputMode="numeric" value={watch.settleMs} onChange={(event) => set({ settleMs: event.target.value })} />
        </Field>
      </div>
    </>
  );
}

function GitFields({ draft, change, problem }: EventFieldsProps) {
  const { git } = draft;
  const set = (next: Partial<WhenDraft['git']>) => change({ ...draft, git: { ...git, ...next } });
  return (
    <>
      <Field label="Repository" error={problem('git.repository')} hint={help(GitTrigger, 'repository')}>
        <input className="mono" value={git.repository} placeholder="~/code/app or https://github.com/me/app.git" onChange={(event) => set({ repository: event.target.value })} />
      </Field>
      <div className="grid-2">
        <Field label="Branch" error={problem('git.branch')}>
          <input className="mono" value={git.branch} onChange={(event) => set({ branch: event.target.value })} />
        </Field>
        <Field label="Fetch every (seconds)" error={problem('git.pollSeconds')} hint={help(GitTrigger, 'pollSeconds')}>
          <input inputMode="numeric" value={git.pollSeconds} onChange={(event) => set({ pollSeconds: event.target.value })} />
        </Field>
      </div>
      <Field label="Credential" error={problem('git.credential')} hint={<>{help(GitTrigger, 'credential')} {secretsWords}</>}>
        <SecretPicker value={git.credential || undefined} onChange={(credential) => set({ credential: credential ?? '' })} noneLabel="None (a local or public repository)" />
      </Field>
      <NewSecret suggestedName="git-token" onStored={(credential) => set({ credential })} />
    </>
  );
}

function MailFields({ draft, change, problem }: EventFieldsProps) {
  const { mail } = draft;
  const set = (next: Partial<WhenDraft['mail']>) => change({ ...draft, mail: { ...mail, ...next } });
  return (
    <>
      <div className="grid-2">
        <Field label="IMAP server" error={problem('mail.host')}>
          <input className="mono" value={mail.host} placeholder="imap.example.com" onChange={(event) => set({ host: event.target.value })} />
        </Field>
        <Field label="Port" error={problem('mail.port')}>
          <input inputMode="numeric" value={mail.port} onChange={(event) => set({ port: event.target.value })} />
        </Field>
      </div>
      <label className="switch">
        <input type="checkbox" checked={mail.tls} onChange={(event) => set({ tls: event.target.checked, port: mail.port === (mail.tls ? '993' : '143') ? (event.target.checked ? '993' : '143') : mail.port })} />
        TLS from the start
      </label>
      <div className="hint">On: encrypted from the first byte (usually port 993). Off: plain IMAP (usually port 143), upgraded with STARTTLS where the server offers it, else sent in clear, password included.</div>
      <div className="grid-2">
        <Field label="User" error={problem('mail.user')}>
          <input className="mono" autoComplete="off" value={mail.user} onChange={(event) => set({ user: event.target.value })} />
        </Field>
        <Field label="Password" error={problem('mail.password')} hint={<>{help(MailTrigger, 'password')} {secretsWords}</>}>
          <SecretPicker value={mail.password || undefined} onChange={(password) => set({ password: password ?? '' })} noneLabel="Choose a secret…" />
        </Field>
      </div>
      <NewSecret suggestedName="mail-password" onStored={(password) => set({ password })} />
      <div className="grid-2">
        <Field label="Mailbox" error={problem('mail.mailbox')}>
          <input className="mono" value={mail.mailbox} onChange={(event) => set({ mailbox: event.target.value })} />
        </Field>
        <Field label="Ask every (seconds)" error={problem('mail.pollSeconds')} hint={help(MailTrigger, 'pollSeconds')}>
          <input inputMode="numeric" value={mail.pollSeconds} onChange={(event) => set({ pollSeconds: event.target.value })} />
        </Field>
      </div>
      <Field label="After a run succeeds" error={problem('mail.afterRun')}>
        <select value={mail.afterRun} onChange={(event) => set({ afterRun: event.target.value as WhenDraft['mail']['afterRun'] })}>
          <option value="leave">Leave the message as it is</option>
          <option value="mark-read">Mark it as read</option>
          <option value="move">Move it to another mailbox</option>
        </select>
      </Field>
      {mail.afterRun === 'move' && (
        <Field label="Move to" error={problem('mail.moveTo')}>
          <input className="mono" value={mail.moveTo} placeholder="Done" onChange={(event) => set({ moveTo: event.target.value })} />
        </Field>
      )}
    </>
  );
}

function FeedFields({ draft, change, problem }: EventFieldsProps) {
  const { feed } = draft;
  const set = (next: Partial<WhenDraft['feed']>) => change({ ...draft, feed: { ...feed, ...next } });
  return (
    <>
      <Field label="Feed URL" error={problem('feed.url')} hint={help(FeedTrigger, 'url')}>
        <input className="mono" type="url" value={feed.url} placeholder="https://example.com/feed.xml" onChange={(event) => set({ url: event.target.value })} />
      </Field>
      <Field label="Check every (minutes)" error={problem('feed.pollMinutes')}>
        <input inputMode="numeric" value={feed.pollMinutes} onChange={(event) => set({ pollMinutes: event.target.value })} />
      </Field>
    </>
  );
}

export function EventFields(props: EventFieldsProps): ReactNode {
  switch (props.draft.mode) {
    case 'watch':
      return <WatchFields {...props} />;
    case 'git':
      return <GitFields {...props} />;
    case 'mail':
      return <MailFields {...props} />;
    case 'feed':
      return <FeedFields {...props} />;
    default:
      return null;
  }
}
