// Which URLs are the app itself: the built renderer's index.html (with any #route on it), or the
// dev server while developing. The window may navigate only to these, IPC answers only pages at
// these, and only they are granted a permission. Any other file:// page (a file the user dropped
// on the window, a page an attacker wrote to disk) is not the app.
import { pathToFileURL } from 'node:url';

export interface AppPages {
  /** The built renderer's index.html on disk (inside app.asar when packaged). */
  rendererIndex: string;
  /** ELECTRON_RENDERER_URL under `npm run dev`. */
  devServerUrl?: string | undefined;
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

// Windows drive letters arrive in either case; the rest of the path is compared as written.
const comparable = (pathname: string) => {
  try {
    return decodeURIComponent(pathname).replace(/^\/[A-Za-z]:/, (drive) => drive.toLowerCase());
  } catch {
    return undefined;
  }
};

export function isAppUrl(url: string, pages: AppPages): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  const devServer = pages.devServerUrl ? parse(pages.devServerUrl) : undefined;
  if (devServer && /^https?:$/.test(devServer.protocol) && parsed.origin === devServer.origin) return true;
  if (parsed.protocol !== 'file:' || parsed.host !== '') return false;
  const own = comparable(pathToFileURL(pages.rendererIndex).pathname);
  return own !== undefined && comparable(parsed.pathname) === own;
}
