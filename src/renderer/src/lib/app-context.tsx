// The store and the router, handed to every view through context.
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from '../store';

interface Router {
  path: string;
  navigate: (path: string) => void;
}

const StoreContext = createContext<AppStore | undefined>(undefined);
const RouterContext = createContext<Router>({ path: '/', navigate: () => undefined });

const currentPath = () => window.location.hash.replace(/^#/, '') || '/activity';

export function AppProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const onChange = () => setPath(currentPath());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  const navigate = (to: string) => {
    window.location.hash = to;
    setPath(to);
  };
  return (
    <StoreContext.Provider value={store}>
      <RouterContext.Provider value={{ path, navigate }}>{children}</RouterContext.Provider>
    </StoreContext.Provider>
  );
}

/** The store's state and actions, and navigation. */
export function useApp(): AppState & Router {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useApp outside AppProvider');
  const state = useStore(store);
  return { ...state, ...useContext(RouterContext) };
}
