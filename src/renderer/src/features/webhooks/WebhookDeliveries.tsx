// A webhook's deliveries: every request it got, each row saying apart what Steward did with it
// (accepted, a duplicate, filtered out, refused and why) and how its run is doing now (followed
// live), a viewer for the body and headers as received, and Replay, which sends the stored request
// again as if it arrived now; a refused one only after a question naming why it was refused.
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { Delivery, DeliverySummary, Webhook } from '../../../../shared/contract';
import { refusalReason } from '../../../../shared/delivery-refusals';
import { useApp } from '../../lib/app-context';
import { Badge, ErrorLine, formatTime, statusText, Time, useAction, useEscape } from '../../ui/widgets';
import { deliveryRunStatus } from './webhooks-slice';
import { cancelledWhy } from '../../../../shared/run-cancel-words';
import { CancelledWhy } from '../runs/CancelledWhy';

/** What Steward did with the request, in words, apart from how its run went. */
function verdict(delivery: DeliverySummary): { badge: string; words: string; detail: string | null } {
  switch (delivery.outcome) {
    case 'accepted':
      return { badge: 'accepted', words: 'Accepted', detail: delivery.message };
    case 'duplicate':
      return { badge: 'accepted', words: 'Accepted as a duplicate', detail: 'Its idempotency key was seen before: no new run, the original one.' };
    case 'skipped':
      return { badge: 'filtered', words: 'Filtered out', detail: delivery.message };
    case 'challenge':
      return { badge: 'accepted', words: "Answered Slack's URL check", detail: null };
    case 'refused':
      return { badge: 'refused', words: `Refused: ${refusalReason(delivery.errorCode, delivery.message)}`, detail: delivery.message };
  }
}

const verdictIcons: Record<string, string> = { accepted: '✓', filtered: '–', refused: '✕' };

/** The question before a refused delivery is replayed: why it was refused, and what replaying does. */
export function refusedReplayQuestion(delivery: DeliverySummary): string {
  const unverified = delivery.errorCode === 'invalid_signature' ? 'Replaying runs this unverified body.' : 'Replaying runs it as if Steward had accepted it.';
  return `This delivery was refused: ${refusalReason(delivery.errorCode, delivery.message)}. ${unverified} Replay anyway?`;
}

/** JSON pretty-printed; anything else as it came. */
function readable(delivery: Delivery): string {
  if (delivery.body === null) return '(not stored: refused before the body was read)';
  if (delivery.bodyEncoding === 'base64') return `(binary, base64)\n${delivery.body}`;
  try {
    return JSON.stringify(JSON.parse(delivery.body), null, 2);
  } catch {
    return delivery.body;
  }
}

/** The viewer's id, for its View button's aria-controls. */
const viewerId = (webhookId: string) => `delivery-viewer-${webhookId}`;

function BodyViewer({ delivery, onClose }: { delivery: Delivery; onClose: () => void }) {
  useEscape(true, onClose);
  const [raw, setRaw] = useState(false);
  const box = useRef<HTMLElement>(null);
  // It opens below the whole list, often off screen: brought into view and focused, or a click on
  // View would seem to do nothing.
  useEffect(() => {
    // (A DOM without layout, as in the renderer's tests, has no scrollIntoView.)
    if (typeof box.current?.scrollIntoView === 'function') box.current.scrollIntoView({ block: 'nearest' });
    box.current?.focus({ preventScroll: true });
  }, [delivery.id]);
  return (
    <section ref={box} id={viewerId(delivery.webhookId)} className="card delivery-viewer" aria-label={`Delivery ${delivery.id}`} tabIndex={-1}>
      <div className="bar">
        <strong>{delivery.method} · {delivery.status} · {formatTime(delivery.receivedAt)}</strong>
        <span className="spacer" />
        <label className="switch">
          <input type="checkbox" checked={raw} onChange={(event) => setRaw(event.target.checked)} />
          As received
        </label>
        <button onClick={onClose}>Close</button>
      </div>
      {delivery.message && <div className="hint">{delivery.message}</div>}
      <h4>Headers</h4>
      <pre aria-label="Request headers">{Object.entries(delivery.headers).map(([name, value]) => `${name}: ${value}`).join('\n')}</pre>
      {Object.keys(delivery.query).length > 0 && <pre aria-label="Query">{JSON.stringify(delivery.query, null, 2)}</pre>}
      <h4>Body{delivery.bodyBytes !== null ? ` (${delivery.bodyBytes} bytes)` : ''}</h4>
      <pre aria-label="Request body" className="mono">{raw ? (delivery.body ?? '') : readable(delivery)}</pre>
    </section>
  );
}

function ReplayQuestion({ delivery, onReplay, onCancel }: { delivery: DeliverySummary; onReplay: () => void; onCancel: () => void }) {
  useEscape(true, onCancel);
  const cancel = useRef<HTMLButtonElement>(null);
  // Focus goes to the safe answer: Enter on the question runs nothing.
  useEffect(() => cancel.current?.focus(), []);
  const question = refusedReplayQuestion(delivery);
  return (
    <div className="replay-question" role="group" aria-label={question}>
      <span>{question}</span>
      <button className="danger" onClick={onReplay}>Replay anyway</button>
      <button ref={cancel} onClick={onCancel}>Cancel</button>
    </div>
  );
}

/** A replay's new run, in words: "waiting for you", "queued", "cancelled". */
const replayedWords = (status: string) => (status === 'waiting' ? 'waiting for you to allow it' : statusText(status));

const runLinkText = (delivery: DeliverySummary) => (delivery.outcome === 'duplicate' ? 'Original run' : 'Open run');

function Row({ delivery, busy, viewing, onView, onReplay }: { delivery: DeliverySummary; busy: boolean; viewing: boolean; onView: (button: HTMLButtonElement) => void; onReplay: (force: boolean) => void }) {
  const { deliveryRuns, runs } = useApp();
  const [asking, setAsking] = useState(false);
  const said = verdict(delivery);
  const runStatus = deliveryRunStatus(delivery, deliveryRuns);
  // Cancelled since the list loaded: the why comes with the run's own event.
  const live = runs.find((each) => each.id === delivery.run?.id);
  const why = runStatus === 'cancelled' ? (delivery.run?.status === 'cancelled' ? delivery.run.why : null) ?? cancelledWhy('cancelled', live?.error) : null;
  const replayTitle = !delivery.replayable ? 'Refused before its body was read: nothing to replay' : delivery.outcome === 'refused' ? 'Steward refused it: replaying asks first' : 'Send it again, as if it arrived now';
  return (
    <tr>
      <td data-label="When"><Time iso={delivery.receivedAt} />{delivery.origin !== 'sender' ? <span className="hint"> ({delivery.origin})</span> : null}</td>
      <td data-label="HTTP">{delivery.status}</td>
      <td data-label="Accepted / refused" className="delivery-verdict">
        <span className={`verdict ${said.badge}`}><span aria-hidden="true">{verdictIcons[said.badge]} </span>{said.words}</span>
        {said.detail && delivery.outcome !== 'refused' && <div className="hint">{said.detail}</div>}
        {delivery.outcome === 'refused' && delivery.message && <div className="hint">{delivery.message}</div>}
      </td>
      <td data-label="Run">
        {delivery.run && runStatus ? (
          <>
            <Badge status={runStatus} /><CancelledWhy why={why} /> <a href={`#/runs/${delivery.run.id}`} aria-label={`${runLinkText(delivery)} of delivery ${delivery.id}: ${statusText(runStatus)}`}>{runLinkText(delivery)}</a>
          </>
        ) : delivery.runId ? <span className="hint">run removed</span> : <span className="hint">no run</span>}
      </td>
      <td className="actions">
        <button aria-label={`View delivery ${delivery.id}`} aria-expanded={viewing} aria-controls={viewing ? viewerId(delivery.webhookId) : undefined} onClick={(event) => onView(event.currentTarget)}>View</button>
        <button aria-label={`Replay delivery ${delivery.id}`} disabled={!delivery.replayable || busy} title={replayTitle} onClick={() => (delivery.outcome === 'refused' ? setAsking(true) : onReplay(false))}>Replay</button>
        {asking && <ReplayQuestion delivery={delivery} onCancel={() => setAsking(false)} onReplay={() => { setAsking(false); onReplay(true); }} />}
      </td>
    </tr>
  );
}

export function WebhookDeliveries({ webhook }: { webhook: Webhook }) {
  const { deliveries, loadDeliveries, openDelivery, showDelivery, replayDelivery } = useApp();
  const action = useAction();
  const [note, setNote] = useState<ReactNode>();
  const page = deliveries[webhook.id];
  useEffect(() => {
    // Loaded when a webhook is shown; Refresh, tests and replays load again.
    void loadDeliveries(webhook.id).catch(() => undefined);
  }, [webhook.id, loadDeliveries]);

  const replay = async (delivery: DeliverySummary, force: boolean) => {
    const outcome = await action.run(() => replayDelivery(delivery, force));
    if (!outcome) return;
    const { run } = outcome;
    setNote(run ? <>Replayed: a new run, {replayedWords(run.status)}. <a href={`#/runs/${run.id}`} title={run.id}>Open the run</a></> : `Replayed, and skipped by the filter: ${outcome.reason ?? ''}`);
  };
  const shown = openDelivery?.webhookId === webhook.id ? openDelivery : null;
  // The View button that opened the viewer gets the focus back when it closes (Close or Escape).
  const opener = useRef<HTMLButtonElement | null>(null);
  const close = () => {
    void showDelivery(null);
    opener.current?.focus();
  };

  return (
    <>
      <div className="bar">
        <h3>Deliveries</h3>
        <span className="spacer" />
        <button onClick={() => void action.run(() => loadDeliveries(webhook.id))}>Refresh</button>
      </div>
      {note && <div className="hint" role="status">{note}</div>}
      <ErrorLine message={action.error?.message} />
      {!page || page.items.length === 0 ? <div className="hint">None yet. Send a test payload, or call the URL.</div> : (
        <table className="deliveries" aria-label={`Deliveries of ${webhook.name}`}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">HTTP</th>
              <th scope="col">Accepted / refused</th>
              <th scope="col">Run</th>
              <th scope="col"><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((delivery) => (
              <Row
                key={delivery.id}
                delivery={delivery}
                busy={action.busy}
                viewing={shown?.id === delivery.id}
                onView={(button) => {
                  opener.current = button;
                  // View of the delivery shown closes it, as its aria-expanded says.
                  if (shown?.id === delivery.id) close();
                  else void action.run(() => showDelivery(delivery.id));
                }}
                onReplay={(force) => void replay(delivery, force)}
              />
            ))}
          </tbody>
        </table>
      )}
      {page?.nextBefore && <button onClick={() => void action.run(() => loadDeliveries(webhook.id, true))}>Older deliveries</button>}
      {shown && <BodyViewer delivery={shown} onClose={close} />}
    </>
  );
}
