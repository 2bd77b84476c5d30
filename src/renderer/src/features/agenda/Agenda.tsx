// The Agenda: today and the next 7 days as a timeline per automation (a table: rows are
// automations, columns days), each due fire a mark saying what became of it, or for one to come
// what it may cost; the month's forecast spend and a legend. The table scrolls inside its own box.
// The agenda is read a page at a time: while more fires fall in the window, the day the pages
// shown stop in says so, and "Show more fires" below the table adds the next page.
import { useEffect, useRef, useState } from 'react';
import type { AgendaEntry } from '../../../../shared/contract';
import { type AgendaRow, type Day, agendaRows, countsByKind, dayKey, daysFrom, kindOf, listedPerCell, markIcons, markKinds, markText, markWords } from './agenda-grid';
import { formatUsd } from '../reliability/drafts';
import { Empty, ErrorLine, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';

const shownDays = 8;
/** The longest an agenda shown waits to read a change of its automations again. */
const agendaReloadAfterChangeMs = 3000;
const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

function Mark({ entry }: { entry: AgendaEntry }) {
  const kind = kindOf(entry);
  const time = clock.format(new Date(entry.dueAt));
  const text = markText(entry);
  const inner = (
    <>
      <span aria-hidden="true">{markIcons[kind]}</span> {time}
      <span className="visually-hidden">: {text}</span>
    </>
  );
  return (
    <li className={`mark ${kind}`} title={`${time}: ${text}`}>
      {entry.runId ? <a href={`#/runs/${entry.runId}`}>{inner}</a> : inner}
    </li>
  );
}

function Cell({ entries }: { entries: AgendaEntry[] | undefined }) {
  if (!entries) return <td />;
  if (entries.length <= listedPerCell) {
    return <td><ul className="marks">{entries.map((entry, index) => <Mark key={`${entry.dueAt}-${index}`} entry={entry} />)}</ul></td>;
  }
  return (
    <td>
      <ul className="marks">
        {countsByKind(entries).map(([kind, count]) => (
          <li key={kind} className={`mark ${kind}`}>
            <span aria-hidden="true">{markIcons[kind]}</span> {count}<span className="visually-hidden"> {markWords[kind]}</span>
          </li>
        ))}
      </ul>
    </td>
  );
}

/** Where a cut agenda stops: its day and time, and how many fires it shows. */
interface Cut {
  dayKey: string;
  at: string;
  shown: number;
}

function cutOf(entries: AgendaEntry[], nextAfter: string | null): Cut | undefined {
  const last = entries.at(-1);
  if (nextAfter === null || !last) return undefined;
  const at = new Date(last.dueAt);
  return { dayKey: dayKey(at), at: clock.format(at), shown: entries.length };
}

function Timeline({ rows, days, cut }: { rows: AgendaRow[]; days: Day[]; cut: Cut | undefined }) {
  return (
    <div className="agenda-scroll" role="region" aria-label="Timeline" tabIndex={0}>
      <table className="agenda">
        <caption className="visually-hidden">Each automation's fires, today and the next 7 days</caption>
        <thead>
          <tr>
            <th scope="col">Automation</th>
            {days.map((day) => (
              <th scope="col" key={day.key}>
                {day.label}
                {cut?.dayKey === day.key && <div className="hint" data-testid="agenda-cut">shown until {cut.at}: the first {cut.shown.toLocaleString('en-US')} fires so far</div>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.automationId}>
              <th scope="row"><a href="#/automations">{row.name}</a></th>
              {days.map((day) => <Cell key={day.key} entries={row.cells[day.key]} />)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Legend() {
  return (
    <ul className="legend-list" aria-label="Legend">
      {markKinds.map((kind) => (
        <li key={kind} className={`mark ${kind}`}><span aria-hidden="true">{markIcons[kind]}</span> {markWords[kind]}</li>
      ))}
    </ul>
  );
}

export function Agenda() {
  const { agenda, automations, loadAgenda, loadMoreAgenda } = useApp();
  const [{ days, from, to }] = useState(() => daysFrom(new Date(), shownDays));
  const action = useAction();
  const more = useAction();
  const load = () => void action.run(() => loadAgenda(from.toISOString(), to.toISOString()));
  useEffect(load, [loadAgenda]); // once: this window never changes while the view is shown
  // Again when an automation changes or one of its runs starts or ends, at most once every few
  // seconds: thirty automations due the same minute are one reload, not sixty.
  const changed = automations.map((each) => `${each.updatedAt}${each.lastRunAt}${each.lastRunStatus}`).join();
  const reloadSoon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const seen = useRef(changed);
  useEffect(() => {
    if (changed === seen.current) return;
    seen.current = changed;
    if (reloadSoon.current !== undefined) return; // the reload already due reads this change too
    reloadSoon.current = setTimeout(() => {
      reloadSoon.current = undefined;
      load();
    }, agendaReloadAfterChangeMs);
  }, [changed]);
  useEffect(() => () => clearTimeout(reloadSoon.current), []);
  const rows = agenda ? agendaRows(agenda.entries) : [];
  const failed = agenda?.entries.filter((entry) => kindOf(entry) === 'failed').length ?? 0;
  const missed = agenda?.entries.filter((entry) => kindOf(entry) === 'missed').length ?? 0;
  const cut = agenda ? cutOf(agenda.entries, agenda.nextAfter) : undefined;
  return (
    <section aria-labelledby="agenda-title">
      <div className="bar">
        <h2 id="agenda-title">Agenda</h2>
        <span className="spacer" />
        <button type="button" onClick={load} disabled={action.busy}>Reload</button>
      </div>
      {action.error && <ErrorLine message={`The agenda could not be loaded: ${action.error.message}`} />}
      {agenda && (
        <>
          <p data-testid="forecast">
            {agenda.forecastMonthUsd === null
              ? 'No forecast yet: no automation’s runs reported a cost.'
              : <>Forecast for the next 30 days: <strong>about {formatUsd(agenda.forecastMonthUsd)}</strong></>}
            {(failed > 0 || missed > 0) && <span className="warning-text"> · {failed} failed and {missed} missed today</span>}
          </p>
          {rows.length === 0 ? (
            <Empty title="Nothing due this week">Automations on a schedule show here, each fire on its day.</Empty>
          ) : (
            <>
              <Timeline rows={rows} days={days} cut={cut} />
              {cut && (
                <div className="bar">
                  <p className="warning-text" role="status" data-testid="agenda-cut-notice">
                    Showing the first {cut.shown.toLocaleString('en-US')} fires of these {shownDays} days: more are due, so {days.find((day) => day.key === cut.dayKey)?.label ?? 'the last day shown'} is shown only until {cut.at}, and the days after it are not shown yet.
                  </p>
                  {/* Busy, not disabled, while it loads: a disabled button drops the keyboard's focus. */}
                  <button type="button" onClick={() => {
                      if (!more.busy) void more.run(loadMoreAgenda);
                    }} aria-busy={more.busy}>{more.busy ? 'Loading more fires…' : 'Show more fires'}</button>
                </div>
              )}
              {more.error && <ErrorLine message={`More fires could not be loaded: ${more.error.message}`} />}
            </>
          )}
          <Legend />
        </>
      )}
    </section>
  );
}
