// What the preload puts on window, for the renderer's type checks.
export {};

declare global {
  interface Window {
    steward?: { readonly platform: string };
  }
}
