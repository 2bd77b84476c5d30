// The main window: sandboxed renderer, no Node; it shows the app's own page only (navigation,
// redirects, webviews and new windows elsewhere refused; https links open in the browser).
import { BrowserWindow, shell } from 'electron';
import { join } from 'node:path';
import { type AppPages, isAppUrl } from './app-url';

export function createMainWindow(pages: AppPages): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    show: false,
    title: 'Steward',
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const stayHome = (event: { preventDefault(): void }, url: string) => {
    if (!isAppUrl(url, pages)) event.preventDefault();
  };
  window.webContents.on('will-navigate', stayHome);
  window.webContents.on('will-redirect', stayHome);
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  if (pages.devServerUrl) void window.loadURL(pages.devServerUrl);
  else void window.loadFile(pages.rendererIndex);
  return window;
}
