// "What would have fired in the last 24 h" under an event trigger: asked of the source when the
// person presses Check (never on each keystroke: it opens a folder, a connection or a fetch), and
// shown as a list, or the source's own words when it could not be read. A list made for other
// settings than those now in the form says so.
import { useState } from 'react';
import type { AutomationTrigger, PreviewedEvent } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { Time } from '../../ui/widgets';

type Checked = { for: string; events: PreviewedEvent[] } | { for: string; error: string } | { for: string; unready: true };

export function EventPreview(props: {
  /** The trigger as the form holds it now, or undefined after marking what to fix. */
  trigger: () => AutomationTrigger | undefined;
  /** The trigger now, unchecked, to tell a stale list from a current one. */
  current: AutomationTrigger | undefined;
  timezone: string;
  /** A trigger not saved yet takes its baseline: what is there now never runs. */
  creating: boolean;
  /** A git trigger's preview lists commits; commits pushed together make one run. */
  commits: boolean;
}) {
  const { previewTrigger } = useApp();
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState<Checked | undefined>();
  const check = async () => {
    const trigger = props.trigger();
    // Said here, beside the button pressed: the fields marked may be far above.
    if (!trigger) return setChecked({ for: '', unready: true });
    const key = JSON.stringify(trigger);
    setBusy(true);
    try {
      setChecked({ for: key, events: await previewTrigger(trigger, props.timezone) });
    } catch (error) {
      setChecked({ for: key, error: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };
  const stale = checked !== undefined && !('unready' in checked) && checked.for !== JSON.stringify(props.current);
  return (
    <div className="event-preview" role="region" aria-label="What would have fired">
      <div className="row wrap">
        <button type="button" onClick={() => void check()} disabled={busy} aria-busy={busy}>{busy ? 'Checking…' : 'Check'}</button>
        <span className="hint">What would have started a run in the last 24 h, read from the source now.</span>
      </div>
      <div aria-live="polite">
        {checked && stale && <div className="hint">Changed since this check: press Check again.</div>}
        {checked && 'unready' in checked && <div className="error" role="alert" data-testid="preview-unready">Fix the fields marked above first, then press Check.</div>}
        {checked && 'error' in checked && <div className="error" role="alert" data-testid="preview-error">Could not check: {checked.error}</div>}
        {checked && 'events' in checked && (checked.events.length === 0 ? (
          <div className="hint" data-testid="preview-empty">Nothing in the last 24 h would have started a run.</div>
        ) : (
          <>
            <ul className="preview-events" aria-label="Would have fired">
              {checked.events.map((event) => (
                <li key={event.key}><Time iso={event.at} /> {event.summary}</li>
              ))}
            </ul>
            {props.commits && <div className="hint">Each commit is listed; commits pushed together make one run.</div>}
            {props.creating && <div className="hint" data-testid="preview-baseline">These show that the trigger reads its source. They will not run: a new trigger starts from what is there when it is saved, and runs for what comes after.</div>}
          </>
        ))}
      </div>
    </div>
  );
}
