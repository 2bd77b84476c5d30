// The window's content. The full UI (automations, webhooks, instances, activity) is the desktop
// issue's; until then the window says what Steward is and where its API answers.
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32, maxWidth: 640 }}>
      <h1>Steward</h1>
      <p>Steward runs your AI agents on schedules, on webhooks and on demand.</p>
      <p>
        The API answers on <code>http://127.0.0.1:7321</code>; make a key with <code>npm run cli -- keys create --name me</code>.
      </p>
    </main>
  );
}
