// Short-lived feedback: "Saved", "Could not save: …". A toast disappears on its own after a few
// seconds, or when dismissed.
import type { Slice } from '../store';

export interface Toast {
  id: number;
  kind: 'success' | 'failure';
  message: string;
}

export interface ToastsSlice {
  toasts: Toast[];
  toast: (kind: Toast['kind'], message: string) => void;
  dismissToast: (id: number) => void;
}

// Failures stay longer: they are read, not glanced at.
const lifetimeMs = { success: 3_000, failure: 8_000 } as const;
let nextId = 1;

export const toastsSlice: Slice<ToastsSlice> = (set, get) => ({
  toasts: [],
  toast(kind, message) {
    const id = nextId++;
    set({ toasts: [...get().toasts.slice(-3), { id, kind, message }] });
    setTimeout(() => get().dismissToast(id), lifetimeMs[kind]);
  },
  dismissToast(id) {
    if (get().toasts.some((each) => each.id === id)) set({ toasts: get().toasts.filter((each) => each.id !== id) });
  },
});
