// The toasts in a corner: saves confirmed, failures said in words. Read out by screen readers
// through a live region that is always there.
import { useApp } from '../lib/app-context';

export function Toasts() {
  const { toasts, dismissToast } = useApp();
  return (
    <div className="toasts" aria-live="polite" data-testid="toasts">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast ${toast.kind}`}>
          <span aria-hidden="true">{toast.kind === 'success' ? '✓' : '✕'}</span>
          <span>{toast.message}</span>
          <button type="button" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>×</button>
        </div>
      ))}
    </div>
  );
}
