// Saving an edit of a resource that came from a configuration file asks first: write the change
// back to the file, detach the resource from it, or cancel (nothing saved). Saved here alone, the
// next apply of that file (the watched folder's next change) would undo the edit. The question is
// a modal dialog: the focus moves into it and stays there, Escape cancels. A write-back that fails
// (the file came from an upload, or is gone) says why and offers Detach; the edit is saved by then.
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { ManagedResource } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { useEscape } from '../../ui/widgets';
import './config.css';

interface Pending {
  origin: ManagedResource;
  save: () => Promise<boolean>;
  done: () => void;
}

/** Keeps Tab and Shift+Tab among the dialog's own controls. */
function trapTab(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab') return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>('button:not(:disabled)')];
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * `submit(save, done)`: a resource that did not come from a file is saved at once; one that did is
 * saved only once the person chose. `save` resolves true when it saved (its form shows why not);
 * `done` closes the form. Render `dialog` in the form.
 */
export function useManagedSave(id: string | undefined): { submit: (save: () => Promise<boolean>, done: () => void) => void; dialog: ReactNode } {
  const { managedOf, writeBackToFile, detachFromFile, toast } = useApp();
  const [pending, setPending] = useState<Pending>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const first = useRef<HTMLButtonElement>(null);
  const open = pending !== undefined;
  useEffect(() => {
    if (open) first.current?.focus();
  }, [open, failure]);

  const close = () => {
    setPending(undefined);
    setFailure(undefined);
  };
  const finish = () => {
    pending?.done();
    close();
  };
  // Cancel before saving saves nothing; once saved (a write-back failed), closing keeps the edit.
  useEscape(open, () => (failure === undefined ? close() : finish()));

  const submit = (save: () => Promise<boolean>, done: () => void) => {
    const origin = id === undefined ? undefined : managedOf(id);
    if (!origin) {
      void save().then((saved) => saved && done());
      return;
    }
    setFailure(undefined);
    setPending({ origin, save, done });
  };

  const then = async (follow: 'write-back' | 'detach', saveFirst: boolean) => {
    if (!pending) return;
    const { origin } = pending;
    setBusy(true);
    try {
      if (saveFirst && !(await pending.save())) return close();
      try {
        if (follow === 'write-back') {
          const file = await writeBackToFile(origin.id);
          toast('success', `${origin.name} saved and written back to ${file}.`);
        } else {
          await detachFromFile(origin.id);
          toast('success', `${origin.name} saved and detached from ${origin.file}.`);
        }
        finish();
      } catch (error) {
        setFailure(`${follow === 'write-back' ? 'The change is saved here, but not written back' : 'The change is saved here, but not detached'}: ${(error as Error).message}`);
      }
    } finally {
      setBusy(false);
    }
  };

  const dialog = pending && (
    <div className="dialog-backdrop">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={`${titleId}-text`} onKeyDown={trapTab}>
        <h3 id={titleId}>{failure ? 'Not written back' : `Save ${pending.origin.name}?`}</h3>
        {failure ? (
          <>
            <div id={`${titleId}-text`} className="error" role="alert">{failure}</div>
            <div className="hint">Detach it, or the next apply of {pending.origin.file} undoes the edit.</div>
            <div className="bar">
              <button ref={first} type="button" className="primary" disabled={busy} onClick={() => void then('detach', false)}>Detach it from the file</button>
              <button type="button" disabled={busy} onClick={finish}>Keep it as it is</button>
            </div>
          </>
        ) : !pending.origin.writable ? (
          <>
            <p id={`${titleId}-text`}>
              This {pending.origin.kind} came from <span className="mono">{pending.origin.file}</span>, an upload: there is no file here to write the change back to. Detach it, and it is yours to change here; the next apply of that file would otherwise undo the change.
            </p>
            <div className="bar">
              <button ref={first} type="button" className="primary" disabled={busy} onClick={() => void then('detach', true)}>Detach it from the file</button>
              <button type="button" disabled={busy} onClick={close}>Cancel</button>
            </div>
          </>
        ) : (
          <>
            <p id={`${titleId}-text`}>
              This {pending.origin.kind} comes from <span className="mono">{pending.origin.file}</span>. Saved only here, the next apply of that file would undo the change.
            </p>
            <div className="bar">
              <button ref={first} type="button" className="primary" disabled={busy} onClick={() => void then('write-back', true)}>Write the change back to the file</button>
              <button type="button" disabled={busy} onClick={() => void then('detach', true)}>Detach it from the file</button>
              <button type="button" disabled={busy} onClick={close}>Cancel</button>
            </div>
          </>
        )}
      </div>
    </div>
  );
  return { submit, dialog };
}
