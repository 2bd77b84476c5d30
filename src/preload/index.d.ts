// What the preload puts on window, for the renderer's type checks.
import type { StewardBridge } from '../shared/bridge';

export {};

declare global {
  interface Window {
    steward?: StewardBridge;
  }
}
