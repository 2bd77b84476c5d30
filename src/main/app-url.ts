// Which URLs are the app itself: its files, or the dev server while developing. The window may
// navigate only to these, and IPC answers only pages at these.
export function isAppUrl(url: string, devServerUrl: string | undefined): boolean {
  if (devServerUrl) {
    const origin = new URL(devServerUrl).origin;
    try {
      return new URL(url).origin === origin;
    } catch {
      return false;
    }
  }
  return url.startsWith('file://');
}
