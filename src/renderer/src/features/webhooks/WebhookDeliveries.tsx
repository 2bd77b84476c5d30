// A webhook's deliveries: every request it got (accepted, skipped by the filter, refused) with its
// status, a viewer for the body and headers as received, and Replay, which sends the stored
// request again as if it arrived now.
import { useEffect, useState } from 'react';
import type { Delivery, DeliverySummary, Webhook } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { Badge, ErrorLine, formatTime, Time, useAction, useEscape } from '../../ui/widgets';
import { ScrollBox } from '../../ui/ScrollBox';

const outcomeBadge: Record<DeliverySummary['outcome'], string> = {
  accepted: 'succeeded',
  duplicate: 'queued',
  skipped: 'cancelled',
  challenge: 'queued',
  refused: 'failed',
};

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

function BodyViewer({ delivery, onClose }: { delivery: Delivery; onClose: () => void }) {
  useEscape(true, onClose);
  const [raw, setRaw] = useState(false);
  return (
    <section className="card" aria-label={`Delivery ${delivery.id}`}>
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

export function WebhookDeliveries({ webhook }: { webhook: Webhook }) {
  const { deliveries, loadDeliveries, openDelivery, showDelivery, replayDelivery } = useApp();
  const action = useAction();
  const [note, setNote] = useState<string>();
  const page = deliveries[webhook.id];
  useEffect(() => {
    // Loaded when a webhook is shown; Refresh, tests and replays load again.
    void loadDeliveries(webhook.id).catch(() => undefined);
  }, [webhook.id, loadDeliveries]);

  const replay = async (delivery: DeliverySummary) => {
    const outcome = await action.run(() => replayDelivery(delivery));
    if (outcome) setNote(outcome.run ? `Replayed: run ${outcome.run.id} is ${outcome.run.status}.` : `Replayed, and skipped by the filter: ${outcome.reason ?? ''}`);
  };
  const shown = openDelivery?.webhookId === webhook.id ? openDelivery : null;

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
        <ScrollBox label={`Deliveries of ${webhook.name}, the table`}>
        <table aria-label={`Deliveries of ${webhook.name}`}>
          <tbody>
            {page.items.map((delivery) => (
              <tr key={delivery.id}>
                <td><Time iso={delivery.receivedAt} /></td>
                <td>{delivery.status}</td>
                <td><Badge status={outcomeBadge[delivery.outcome]} /> {delivery.outcome}{delivery.origin !== 'sender' ? ` (${delivery.origin})` : ''}</td>
                <td className="hint">{delivery.errorCode ?? delivery.message ?? ''}</td>
                <td>{delivery.runId ? <a href={`#/runs/${delivery.runId}`}>Run</a> : ''}</td>
                <td>
                  <button aria-label={`View delivery ${delivery.id}`} onClick={() => void action.run(() => showDelivery(delivery.id))}>View</button>
                  <button aria-label={`Replay delivery ${delivery.id}`} disabled={!delivery.replayable || action.busy} title={delivery.replayable ? 'Send it again, as if it arrived now' : 'Refused before its body was read: nothing to replay'} onClick={() => void replay(delivery)}>Replay</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </ScrollBox>
      )}
      {page?.nextBefore && <button onClick={() => void action.run(() => loadDeliveries(webhook.id, true))}>Older deliveries</button>}
      {shown && <BodyViewer delivery={shown} onClose={() => void showDelivery(null)} />}
    </>
  );
}
