// An event source's runtime health on its automation's card: a badge (listening, checking, failing)
// and a line with how it waits, its last event and its last check. Failing is said in full on the
// card — the source's error and since when — never only in a tooltip: a deaf automation must be
// impossible to miss. The core does not push health changes, so a card with a source reads its
// automation again while it is shown: often while checking or failing, now and then while listening.
import { useEffect } from 'react';
import type { Automation, SourceHealth } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { Time, formatTime } from '../../ui/widgets';

const icons: Record<SourceHealth['state'], string> = { listening: '●', checking: '◌', failing: '✕' };
/** A change of state comes as a live event; the card reads the automation again now and then for its last check. */
const refreshMs = 30_000;

export function SourceBadge({ source }: { source: SourceHealth }) {
  return (
    <span className={`badge source ${source.state}`} data-testid="source-state" title={`Since ${formatTime(source.since)}`}>
      <span aria-hidden="true">{icons[source.state]} </span>
      {source.state}
    </span>
  );
}

/** Reads the automation again now and then while its source is shown, so that its last check stays current. */
export function useSourcePoll(automation: Automation): void {
  const { refreshAutomation } = useApp();
  const state = automation.source?.state;
  useEffect(() => {
    if (!state) return undefined;
    const timer = setInterval(() => void refreshAutomation(automation.id).catch(() => undefined), refreshMs);
    return () => clearInterval(timer);
  }, [automation.id, state, refreshAutomation]);
}

export function SourceLine({ source }: { source: SourceHealth }) {
  return (
    <>
      {source.state === 'failing' && (
        <div className="source-failing" role="alert" data-testid="source-error">
          <strong>Not listening</strong> since <Time iso={source.since} />: {source.error ?? 'its source failed'}.{' '}
          {source.failures > 1 ? `${source.failures} attempts in a row failed; ` : ''}retried with a growing wait.
        </div>
      )}
      <div className="hint" data-testid="source-line">
        {source.how ? `${source.how.charAt(0).toUpperCase()}${source.how.slice(1)} · ` : ''}last event <Time iso={source.lastEventAt} /> · last check <Time iso={source.lastCheckAt} />
      </div>
    </>
  );
}
