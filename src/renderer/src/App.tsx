// The window: navigation on the left, the current view on the right. Loads everything once and
// follows live events.
import { useEffect } from 'react';
import { inDesktopApp } from './lib/api';
import { useApp } from './lib/app-context';
import { Activity } from './views/Activity';
import { Automations } from './views/Automations';
import { Instances } from './views/Instances';
import { RunList, RunView, ThreadView } from './views/Runs';
import { Settings } from './views/Settings';
import { Webhooks } from './views/Webhooks';

const healthPollMs = 15_000;

const sections = [
  ['/activity', 'Activity'],
  ['/automations', 'Automations'],
  ['/webhooks', 'Webhooks'],
  ['/instances', 'Instances'],
  ['/runs', 'Runs'],
  ['/settings', 'Settings'],
] as const;

function View({ path }: { path: string }) {
  const [, section, id] = path.split('/');
  switch (section) {
    case 'automations':
      return <Automations />;
    case 'webhooks':
      return <Webhooks />;
    case 'instances':
      return <Instances />;
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
  const { path, degraded, loadAutomations, loadWebhooks, loadInstances, loadRuns, loadActivity, loadSettings, loadHealth } = useApp();
  useEffect(() => {
    void Promise.all([loadAutomations(), loadWebhooks(), loadInstances(), loadRuns(), loadActivity(), loadSettings(), loadHealth()]);
  }, [loadAutomations, loadWebhooks, loadInstances, loadRuns, loadActivity, loadSettings, loadHealth]);
  useEffect(() => {
    // A full disk comes and goes without an event of its own: ask now and then.
    const timer = setInterval(() => void loadHealth().catch(() => undefined), healthPollMs);
    return () => clearInterval(timer);
  }, [loadHealth]);
  return (
    <div className="shell">
      <nav aria-label="Sections">
        <h1>Steward</h1>
        {sections.map(([to, label]) => (
          <a key={to} href={`#${to}`} aria-current={path.startsWith(to) ? 'page' : undefined}>{label}</a>
        ))}
        {!inDesktopApp() && (
          <form method="post" action="/logout" style={{ marginTop: 24 }}>
            <button type="submit">Log out</button>
          </form>
        )}
      </nav>
      <main>
        {degraded && (
          <div className="card error" role="alert">
            Steward cannot save anything right now: {degraded}
          </div>
        )}
        <View path={path} />
      </main>
    </div>
  );
}
