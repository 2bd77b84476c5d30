// Small building blocks every view uses: labelled fields with their API error, a two-step
// confirmation, teaching empty states, status badges, times, copy buttons and avatars.
import { type ReactElement, type ReactNode, cloneElement, useEffect, useId, useRef, useState } from 'react';
import type { Memory, NotifyOverride } from '../../../shared/contract';
import { ApiError } from '../lib/api';
import { forgetOnEdit, noteSubject, useRefusalFocus, withLabel } from './form-errors';

/**
 * Runs an action and keeps its error, so a form can show it next to the field it concerns. A form
 * passes `formRef` to its <form> and calls `refused()` when its own check stops a submit; a refusal
 * by the server is noticed here. Either way the first field in error is focused (form-errors.ts).
 */
export function useAction() {
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const refusal = useRefusalFocus<HTMLFormElement>();
  useEffect(() => (error ? forgetOnEdit(error.message, () => setError(undefined)) : undefined), [error]);
  async function run<T>(action: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(undefined);
    try {
      return await action();
    } catch (caught) {
      const error = caught instanceof ApiError ? caught : new ApiError('internal_error', String(caught));
      noteSubject(error.message, error.field);
      setError(error);
      refusal.refused();
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  /** The error if it concerns `field` (or starts with it: `agent.command`). */
  const errorFor = (field: string) => (error?.field === field || error?.field?.startsWith(`${field}.`) ? error.message : undefined);
  /** An error no field shows. */
  const generalError = (fields: string[]) => (error && !fields.some((field) => errorFor(field)) ? error.message : undefined);
  /** Forgets the error once the field it concerns changes: a fixed mistake stops being shown. */
  const clearFor = (field: string) => {
    if (errorFor(field)) setError(undefined);
  };
  return { run, busy, error, errorFor, generalError, clearFor, clear: () => setError(undefined), formRef: refusal.ref, refused: refusal.refused };
}

/** A labelled control; its hint, warning and error are tied to it with aria-describedby. */
export function Field(props: { label: string; error?: string | undefined; hint?: ReactNode; warning?: string | undefined; children: ReactElement<Record<string, unknown>> }) {
  const id = useId();
  const notes = [props.hint && `${id}-hint`, props.warning && `${id}-warning`, props.error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {cloneElement(props.children, { id, 'aria-describedby': notes || undefined, 'aria-invalid': props.error ? true : undefined })}
      {props.hint && <div className="hint" id={`${id}-hint`}>{props.hint}</div>}
      {props.warning && <div className="warning" role="status" id={`${id}-warning`}>{props.warning}</div>}
      {props.error && <div className="error" role="alert" id={`${id}-error`}>{withLabel(props.error, props.label)}</div>}
    </div>
  );
}

export function ErrorLine({ message }: { message: string | undefined }) {
  return message ? <div className="error" role="alert">{message}</div> : null;
}

/**
 * A button that asks once more, saying what will happen. The question takes the focus on its safe
 * choice ("Keep it"); answered, the focus goes back to the button (or stays on the card, if the
 * answer took the button away), never to the page's body.
 */
export function ConfirmButton(props: { label: string; question: string; confirm: string; onConfirm: () => void; danger?: boolean }) {
  const [asking, setAsking] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const answered = useRef(false);
  useEscape(asking, () => { answered.current = true; setAsking(false); });
  useEffect(() => {
    if (asking) keep.current?.focus();
    else if (answered.current) button.current?.focus();
  }, [asking]);
  const answer = () => {
    answered.current = true;
    setAsking(false);
  };
  if (!asking) return <button ref={button} className={props.danger ? 'danger' : undefined} onClick={() => setAsking(true)}>{props.label}</button>;
  return (
    <span className="row" role="group" aria-label={props.question}>
      <span className="confirm-question">{props.question}</span>
      <button className={props.danger ? 'danger' : 'primary'} onClick={() => { answer(); props.onConfirm(); }}>{props.confirm}</button>
      <button ref={keep} onClick={answer}>Keep it</button>
    </span>
  );
}

export function Empty(props: { title: string; children: ReactNode }) {
  return (
    <div className="empty">
      <strong>{props.title}</strong>
      {props.children}
    </div>
  );
}

// What Escape closes, the most recently opened last: a server form open inside an agent form
// closes first, and its parent stays open.
const escapeStack: { close: () => void }[] = [];

function onEscapeKey(event: KeyboardEvent) {
  const top = escapeStack.at(-1);
  if (event.key !== 'Escape' || event.defaultPrevented || !top) return;
  event.preventDefault();
  top.close();
}

/** What had the focus when something opened: the element, and how to find its like again. */
interface Opener {
  element: HTMLElement | null;
  /** The aria-label of the element or of its nearest labelled ancestor (a card): where to look. */
  scope: string | null;
  text: string;
}

function currentOpener(): Opener {
  const element = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  return { element, scope: element?.closest('[aria-label]')?.getAttribute('aria-label') ?? null, text: element?.textContent?.trim() ?? '' };
}

/**
 * Gives the focus back to what opened a closed form, unless the focus went somewhere on purpose.
 * An opener that was re-rendered (a card's Edit, replaced by its form and back) is found again by
 * its labelled ancestor and its text.
 */
function returnFocus(opener: Opener) {
  // After React has removed the closed form: then a lost focus sits on <body>.
  setTimeout(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    if (opener.element?.isConnected) return opener.element.focus();
    if (!opener.scope) return;
    const scope = [...document.querySelectorAll<HTMLElement>('[aria-label]')].find((each) => each.getAttribute('aria-label') === opener.scope);
    if (!scope) return;
    if (scope.matches('button, a[href], input, select, textarea')) return scope.focus();
    [...scope.querySelectorAll<HTMLElement>('button, a[href]')].find((each) => each.textContent?.trim() === opener.text)?.focus();
  }, 0);
}

/**
 * Escape closes what is open (a form, a question, a viewer) while `open`; the innermost first.
 * However it closes, the focus goes back to what opened it.
 */
export function useEscape(open: boolean, close: () => void) {
  const latest = useRef(close);
  latest.current = close;
  // Read while rendering the opened state: before a field of it takes the focus (autoFocus).
  const opener = useRef<Opener | null>(null);
  if (!open) opener.current = null;
  else if (!opener.current) opener.current = currentOpener();
  useEffect(() => {
    if (!open) return undefined;
    const entry = { close: () => latest.current() };
    const from = opener.current;
    if (escapeStack.length === 0) window.addEventListener('keydown', onEscapeKey);
    escapeStack.push(entry);
    return () => {
      escapeStack.splice(escapeStack.indexOf(entry), 1);
      if (escapeStack.length === 0) window.removeEventListener('keydown', onEscapeKey);
      if (from) returnFocus(from);
    };
  }, [open]);
}

// Colour alone does not say it: each status has a shape too.
const statusIcons: Record<string, string> = {
  succeeded: '✓', running: '●', up: '●', queued: '◷', provisioning: '◷', connecting: '◷',
  delivered: '✓', pending: '◷', waiting: '?',
  failed: '✕', error: '✕', timed_out: '⧖', interrupted: '!', cancelled: '–', stopped: '■', off: '○',
  connected: '●', unreachable: '✕', unauthorized: '⊘', incompatible: '!',
};

// A status whose word alone would not say it: a run that waits waits for a person.
const statusWords: Record<string, string> = { waiting: 'waiting for you' };

/** A status in words, as badges and sentences say it. */
export const statusText = (status: string): string => statusWords[status] ?? status.replace('_', ' ');

export function Badge({ status }: { status: string }) {
  return (
    <span className={`badge ${status}`}>
      <span aria-hidden="true">{statusIcons[status] ?? '•'} </span>
      {statusText(status)}
    </span>
  );
}

// "in 1 day" rather than "tomorrow": a number reads the same at a glance in every row.
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'always' });
const steps: [Intl.RelativeTimeFormatUnit, number][] = [['second', 60], ['minute', 60], ['hour', 24], ['day', 30], ['month', 12], ['year', Infinity]];

/** "5 minutes ago", "in 1 h 33 min", "in 2 days". */
export function relativeTime(iso: string, now = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  if (Math.abs(amount) < 10) return 'just now';
  // Within a few hours the minutes matter: 1 h 33 min is not "in 2 hours".
  const minutes = Math.round(Math.abs(amount) / 60);
  if (minutes >= 60 && minutes < 10 * 60) {
    const span = minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
    return amount > 0 ? `in ${span}` : `${span} ago`;
  }
  for (const [unit, size] of steps) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return formatTime(iso);
}

/** A time in words relative to now, the exact time on hover. */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <>—</>;
  return <time dateTime={iso} title={formatTime(iso)}>{relativeTime(iso)}</time>;
}

/** Copies a text (an API key, a URL) and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 2_000);
  };
  return <button type="button" onClick={() => void copy().catch(() => setCopied(false))}>{copied ? 'Copied' : label}</button>;
}

export function Avatar({ url, name, small }: { url: string; name: string; small?: boolean }) {
  return <img className={small ? 'avatar small' : 'avatar'} src={url} alt={`${name} avatar`} />;
}

/** Notifications for one automation's or webhook's runs: the setting, or its own choice. */
export function NotifyField({ value, onChange, error }: { value: NotifyOverride; onChange: (value: NotifyOverride) => void; error?: string | undefined }) {
  return (
    <Field label="Notifications" error={error} hint="Shown by the desktop app when a run finishes.">
      <select value={value} onChange={(event) => onChange(event.target.value as NotifyOverride)}>
        <option value="default">As in Settings</option>
        <option value="all">Every run</option>
        <option value="failures">Only failures</option>
        <option value="attention">Failures and runs that need attention</option>
        <option value="none">Never</option>
      </select>
    </Field>
  );
}

/** Whether each run of an automation or webhook continues the agent's last conversation. */
export function MemoryField({ value, onChange, error }: { value: Memory; onChange: (value: Memory) => void; error?: string | undefined }) {
  return (
    <Field label="Memory" error={error} hint="Continue: each run resumes the agent's last conversation, so it remembers earlier runs.">
      <select value={value} onChange={(event) => onChange(event.target.value as Memory)}>
        <option value="fresh">Fresh: each run starts clean</option>
        <option value="continue">Continue the last run's conversation</option>
      </select>
    </Field>
  );
}

export const formatTime = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
