// Renderer entry: the transport (IPC in the desktop app, HTTP in a browser), the store, live
// events, and the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './App';
import { AppProvider } from './lib/app-context';
import { httpClient, ipcClient } from './lib/api';
import { createAppStore } from './store';
import { followLiveEvents } from './store/events';
import './styles.css';

// The page's CSP allows no eval: zod is told not to probe for it (the probe is refused, and logged, on every load).
z.config({ jitless: true });

const client = window.steward ? ipcClient(window.steward) : httpClient();
const store = createAppStore(client);
followLiveEvents(store);
// A clicked notification opens its run.
window.steward?.onNavigate((path) => (window.location.hash = path));

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <AppProvider store={store}>
        <App />
      </AppProvider>
    </StrictMode>,
  );
}
