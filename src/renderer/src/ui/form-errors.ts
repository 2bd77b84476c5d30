// One rule for every form: after a refused submit (the form's own check or the server's answer),
// the first field in error takes the focus and scrolls into view, so that a mistake above the fold
// is never a silent press. Fields mark themselves with aria-invalid (see Field in widgets.tsx); a
// problem that belongs to no single control is a role="alert" line. And an answer of the server goes
// stale: once the field it is shown under changes, it stops being shown (forgetOnEdit).
import { useEffect, useRef, useState } from 'react';
import { fieldLabel } from '../../../shared/issue-words';

const problemSelector = '[aria-invalid="true"], [role="alert"]';
const controlSelector = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

/** The control an alert line speaks about: the first of its field or fieldset, or the line itself. */
function controlOf(alert: HTMLElement, root: HTMLElement): HTMLElement {
  const group = alert.closest<HTMLElement>('.field, fieldset');
  const control = group && root.contains(group) ? group.querySelector<HTMLElement>(controlSelector) : null;
  if (control) return control;
  // A form-wide error (under the fields, above the buttons): focused itself, so that it is read out.
  alert.tabIndex = -1;
  return alert;
}

/** Focuses the first problem inside `root` and scrolls it to the middle of the view; false when there is none. */
export function focusFirstProblem(root: HTMLElement | null): boolean {
  const first = root?.querySelector<HTMLElement>(problemSelector);
  if (!root || !first) return false;
  const target = first.getAttribute('role') === 'alert' ? controlOf(first, root) : first;
  // jsdom (the renderer tests) has no layout, hence no scrollIntoView.
  if ('scrollIntoView' in target) target.scrollIntoView({ block: 'center' });
  target.focus({ preventScroll: true });
  return true;
}

/**
 * A ref for the form and `refused()`, to call when a submit was refused: once the render that
 * shows the errors is on the page, the first of them is focused.
 */
export function useRefusalFocus<T extends HTMLElement = HTMLFormElement>() {
  const ref = useRef<T>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) focusFirstProblem(ref.current);
  }, [refusals]);
  return { ref, refused: () => setRefusals((count) => count + 1) };
}

/**
 * Calls `forget` once a person edits a control whose field (or fieldset) shows `message`: the
 * server's word on a value that is no longer there would be a lie. Returns the unsubscribe.
 */
export function forgetOnEdit(message: string, forget: () => void): () => void {
  const edited = (event: Event) => {
    const group = event.target instanceof Element ? event.target.closest('.field, fieldset') : null;
    // Shown with the field's own label in front, perhaps (withLabel): what follows the subject is the same.
    const subject = subjects.get(message);
    const rest = subject ? message.slice(subject.length) : message;
    const shown = group ? [...group.querySelectorAll('[role="alert"]')].some((line) => (subject ? line.textContent?.endsWith(rest) : line.textContent === message)) : false;
    if (shown) forget();
  };
  // Bubbling, so after React's own handler: a render before it would put back the controlled value.
  document.addEventListener('input', edited);
  document.addEventListener('change', edited);
  return () => {
    document.removeEventListener('input', edited);
    document.removeEventListener('change', edited);
  };
}

// The API names a field by its path ("Agent base URL must be …"); under a field a person reads its
// visible label instead ("Base URL must be …"). The subject of each message the server sent is kept
// here, so the Field that shows it can say it with its own label.
const subjects = new Map<string, string>();

/** Notes the subject a server's message starts with (the words of its field path), if any. */
export function noteSubject(message: string, field: string | undefined): void {
  const path = field ? field.split('.') : [];
  for (let length = path.length; length > 0; length -= 1) {
    const subject = fieldLabel(path.slice(0, length));
    if (subject && message.startsWith(subject) && /^[ :]/.test(message.slice(subject.length))) {
      subjects.set(message, subject);
      return;
    }
  }
}

/** The message said with the field's own label in place of the API's name for it. */
export function withLabel(message: string, label: string): string {
  const subject = subjects.get(message);
  return subject ? `${label}${message.slice(subject.length)}` : message;
}

/** A form that opens takes the focus on its first field, so a person types where they just asked to. */
export function useFocusOnOpen(ref: { current: HTMLElement | null }): void {
  useEffect(() => {
    const first = ref.current?.querySelector<HTMLElement>(controlSelector);
    first?.focus();
  }, [ref]);
}
