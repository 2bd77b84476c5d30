// The window: a skip link, the navigation on the left (at a phone's width one row, its entries
// behind a menu button), the current view on the right. Loads everything once (which resources came
// from files too) and follows live events.
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Toasts } from './ui/Toasts';
import { useEscape } from './ui/widgets';
import { inDesktopApp } from './lib/api';
import { useApp } from './lib/app-context';
import { NeedsYouLink } from './features/approvals/NeedsYouLink';

// One chunk per view, loaded when first opened: the window paints before the views it does not show.
const AgendaView = lazy(() => import('./features/agenda/Agenda').then((module) => ({ default: module.Agenda })));
const Activity = lazy(() => import('./features/activity/Activity').then((module) => ({ default: module.Activity })));
const Automations = lazy(() => import('./features/automations/Automations').then((module) => ({ default: module.Automations })));
const Chat = lazy(() => import('./features/chat/Chat').then((module) => ({ default: module.Chat })));
const NeedsYou = lazy(() => import('./features/approvals/NeedsYou').then((module) => ({ default: module.NeedsYou })));
const Instances = lazy(() => import('./features/instances/Instances').then((module) => ({ default: module.Instances })));
const RunView = lazy(() => import('./features/runs/Run').then((module) => ({ default: module.RunView })));
const RunList = lazy(() => import('./features/runs/Runs').then((module) => ({ default: module.RunList })));
const ThreadView = lazy(() => import('./features/runs/Runs').then((module) => ({ default: module.ThreadView })));
const Settings = lazy(() => import('./features/settings/Settings').then((module) => ({ default: module.Settings })));
const Webhooks = lazy(() => import('./features/webhooks/Webhooks').then((module) => ({ default: module.Webhooks })));

const healthPollMs = 15_000;

const sections = [
  ['/activity', 'Activity'],
  ['/needs-you', 'Needs you'],
  ['/chat', 'Chat'],
  ['/automations', 'Automations'],
  ['/agenda', 'Agenda'],
  ['/webhooks', 'Webhooks'],
  ['/instances', 'Instances'],
  ['/runs', 'Runs'],
  ['/settings', 'Settings'],
] as const;

function View({ path }: { path: string }) {
  const [, section, id, sub] = path.split('/');
  switch (section) {
    case 'needs-you':
      return <NeedsYou />;
    case 'chat':
      return <Chat instanceId={id || undefined} threadId={sub || undefined} />;
    case 'automations':
      return <Automations />;
    case 'agenda':
      return <AgendaView />;
    case 'webhooks':
      return <Webhooks />;
    case 'instances':
      // #/instances/<id>/agent opens that instance's agent form (where its sandbox's hosts are set).
      return <Instances agentOf={sub === 'agent' ? id : undefined} />;
    case 'runs':
      return id ? <RunView id={id} /> : <RunList />;
    case 'threads':
      return id ? <ThreadView id={id} /> : <RunList />;
    case 'settings':
      return <Settings />;
    default:
      return <Activity />;
  }
}

export function App() {
  const { path, degraded, approvals, loadAutomations, loadWebhooks, loadInstances, loadRuns, loadActivity, loadSettings, loadHealth, loadSecrets, loadApprovals, loadConfig } = useApp();
  useEffect(() => {
    void Promise.all([loadAutomations(), loadWebhooks(), loadInstances(), loadRuns(), loadActivity(), loadSettings(), loadHealth(), loadSecrets(), loadApprovals(), loadConfig().catch(() => undefined)]);
  }, [loadAutomations, loadWebhooks, loadInstances, loadRuns, loadActivity, loadSettings, loadHealth, loadSecrets, loadApprovals, loadConfig]);
  const waiting = approvals?.length ?? 0;
  useEffect(() => {
    // A full disk comes and goes without an event of its own: ask now and then.
    const timer = setInterval(() => void loadHealth().catch(() => undefined), healthPollMs);
    return () => clearInterval(timer);
  }, [loadHealth]);
  const [menuOpen, setMenuOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEscape(menuOpen, () => {
    setMenuOpen(false);
    // The entry that had the focus is hidden now: the focus goes back to what opened them.
    menuButton.current?.focus();
  });
  return (
    <div className="shell">
      {/* A button's behaviour on a link: the view's own address is the hash, so href="#main" would navigate. */}
      <a className="skip-link" href="#main" onClick={(event) => { event.preventDefault(); main.current?.focus(); }}>Skip to content</a>
      <nav aria-label="Sections" className={menuOpen ? 'open' : undefined}>
        <div className="nav-top">
          <h1>Steward</h1>
          {/* Its name starts with what it shows ("Menu 2"), so speech input that says those words finds it. */}
          <button ref={menuButton} type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="nav-entries" aria-label={waiting > 0 ? `Menu, ${waiting} waiting in Needs you` : 'Menu'} onClick={() => setMenuOpen(!menuOpen)}>
            <span aria-hidden="true">☰</span> Menu{waiting > 0 && <> <span className="count">{waiting}</span></>}
          </button>
        </div>
        {/* An entry chosen closes the menu. */}
        <div className="nav-entries" id="nav-entries" onClick={(event) => { if (event.target instanceof Element && event.target.closest('a')) setMenuOpen(false); }}>
          {sections.map(([to, label]) => (
            to === '/needs-you' ? (
              <NeedsYouLink key={to} count={waiting} current={path.startsWith(to)} />
            ) : (
              <a key={to} href={`#${to}`} aria-current={path.startsWith(to) ? 'page' : undefined}>{label}</a>
            )
          ))}
          {!inDesktopApp() && (
            <form className="logout" method="post" action="/logout">
              <button type="submit">Log out</button>
            </form>
          )}
        </div>
      </nav>
      <main id="main" tabIndex={-1} ref={main}>
        {degraded && (
          <div className="card error" role="alert">
            Steward cannot save anything right now: {degraded}
          </div>
        )}
        <Suspense fallback={<div className="hint">Loading…</div>}>
          <View path={path} />
        </Suspense>
      </main>
      <Toasts />
    </div>
  );
}
