// @vitest-environment jsdom
// The Agenda view: today and the next 7 days as a table (rows automations, columns days), each fire
// a mark saying in words what became of it (linked to its run) or what it may cost, a crowded day
// counted by kind, the month's forecast and a legend; the window asked for is this computer's days;
// a refusal shown as an alert. agenda.get is answered by a client double in front of a real core's
// client until its handler lands.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { Agenda } from '../../src/renderer/src/features/agenda/Agenda';
import { ApiError, type CallInput, type StewardClient } from '../../src/renderer/src/lib/api';
import { createAppStore } from '../../src/renderer/src/store';
import type { Agenda as AgendaShape, AgendaEntry } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { ipcClientOf, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());
afterEach(cleanup);

const today = new Date();
/** `hour`:`minute` local time, `day` days from today. */
const at = (day: number, hour: number, minute = 0) => new Date(today.getFullYear(), today.getMonth(), today.getDate() + day, hour, minute).toISOString();
const digest = { automationId: 'aut_01DIGEST', automationName: 'Daily digest', instanceId: 'ins_01STEWARD' };
const poller = { automationId: 'aut_01POLLER', automationName: 'Poll the queue', instanceId: 'ins_01STEWARD' };
const entry = (base: typeof digest, dueAt: string, rest: Partial<AgendaEntry>): AgendaEntry => ({ ...base, dueAt, state: 'due', reason: null, detail: null, event: null, runId: null, runStatus: null, forecastUsd: null, ...rest });

const entries: AgendaEntry[] = [
  entry(digest, at(0, 6), { state: 'fired', runId: 'run_01SUCCEEDED', runStatus: 'succeeded' }),
  entry(digest, at(0, 7), { state: 'missed', reason: 'steward_off' }),
  entry(digest, at(0, 8), { state: 'caught-up', runId: 'run_01FAILED', runStatus: 'failed' }),
  entry(digest, at(1, 9), { forecastUsd: 0.12 }),
  entry(digest, at(2, 9), { state: 'skipped', reason: 'budget', detail: 'over its budget of $2.00 a day' }),
  ...Array.from({ length: 6 }, (_, index) => entry(poller, at(1, 10, index * 10), {})),
];

function withAgenda(client: StewardClient, answer: (query: CallInput['query']) => AgendaShape, asked: CallInput['query'][]): StewardClient {
  return {
    subscribe: (listener) => client.subscribe(listener),
    call: (async (name: Parameters<StewardClient['call']>[0], input?: CallInput) => {
      if (name !== 'agenda.get') return client.call(name, input);
      asked.push(input?.query);
      return { agenda: answer(input?.query) };
    }) as StewardClient['call'],
  };
}

describe('the Agenda view', () => {
  it('shows each automation’s fires by day, in words, with the forecast and a legend', async () => {
    const asked: CallInput['query'][] = [];
    const { client, unregister } = ipcClientOf(t);
    const store = createAppStore(withAgenda(client, (query) => ({ from: String(query!.from), to: String(query!.to), entries, nextAfter: null, forecastMonthUsd: 3.6 }), asked));
    renderWith(store, <Agenda />);
    const timeline = await screen.findByRole('table');
    // This computer's midnight today to midnight 8 days on.
    expect(asked[0]).toEqual({ from: at(0, 0), to: at(8, 0), limit: 2000 });
    const headers = within(timeline).getAllByRole('columnheader').map((each) => each.textContent);
    expect(headers).toHaveLength(9);
    expect(headers[0]).toBe('Automation');
    expect(headers[1]).toMatch(/^Today, /);
    expect(screen.getByTestId('forecast').textContent).toBe('Forecast for the next 30 days: about $3.60 · 1 failed and 1 missed today');

    const rows = within(timeline).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['Daily digest', 'Poll the queue']);
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell');
    const [todayCell, tomorrow, dayAfter] = cells(rows[0]);
    const marks = (cell: HTMLElement) => within(cell).queryAllByRole('listitem').map((each) => (each.textContent ?? '').replace(/\d{1,2}:\d\d(\s?[AP]M)?/, 'hh:mm'));
    expect(marks(todayCell)).toEqual(['✓ hh:mm: ran and succeeded', '⊘ hh:mm: missed (Steward was off)', '✕ hh:mm: ran and failed (caught up late)']);
    expect(within(todayCell).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['#/runs/run_01SUCCEEDED', '#/runs/run_01FAILED']);
    expect(within(todayCell).getAllByRole('listitem').map((each) => each.className)).toEqual(['mark succeeded', 'mark missed', 'mark failed']);
    expect(marks(tomorrow)).toEqual(['◷ hh:mm: due, about $0.12']);
    expect(marks(dayAfter)).toEqual(['↷ hh:mm: skipped: over its budget of $2.00 a day']);
    expect(cells(rows[0]).slice(3).every((cell) => cell.textContent === '')).toBe(true);
    // Six fires in a day are counted, not listed.
    expect(marks(cells(rows[1])[1])).toEqual(['◷ 6 due']);

    const legend = within(screen.getByRole('list', { name: 'Legend' })).getAllByRole('listitem').map((each) => each.textContent);
    expect(legend).toEqual(['✓ ran and succeeded', '✕ ran and failed', '● running or queued', '– ran and was cancelled', '• ran', '↷ skipped', '⊘ missed (Steward was off)', '◷ due']);
    // The timeline scrolls in its own box, which the keyboard can reach.
    expect(screen.getByRole('region', { name: 'Timeline' }).getAttribute('tabindex')).toBe('0');
    unregister();
  });

  it('says when there is no forecast and nothing due, and shows a refusal as an alert, then loads again', async () => {
    let refuse = true;
    const { client, unregister } = ipcClientOf(t);
    const store = createAppStore(withAgenda(client, (query) => {
      if (refuse) throw new ApiError('internal_error', 'The agenda is not built yet.');
      return { from: String(query!.from), to: String(query!.to), entries: [], nextAfter: null, forecastMonthUsd: null };
    }, []));
    renderWith(store, <Agenda />);
    expect((await screen.findByRole('alert')).textContent).toBe('The agenda could not be loaded: The agenda is not built yet.');
    expect(screen.queryByRole('table')).toBeNull();
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.getByTestId('forecast').textContent).toBe('No forecast yet: no automation’s runs reported a cost.');
    expect(screen.getByText('Nothing due this week')).toBeTruthy();
    unregister();
  });

  it('says on the day it stops that it shows only its first fires, and shows the next page when asked', async () => {
    const asked: CallInput['query'][] = [];
    const { client, unregister } = ipcClientOf(t);
    // A first page that ends tomorrow at 10:20 with more to come (nextAfter set); the next page has the rest.
    const cursor = `${at(1, 10, 20)}|aut_01POLLER`;
    const first = entries.filter((each) => each.dueAt <= at(1, 10, 20));
    const rest = entries.filter((each) => each.dueAt > at(1, 10, 20));
    const store = createAppStore(
      withAgenda(client, (query) => ({ from: String(query!.from), to: String(query!.to), entries: query!.after === undefined ? first : rest, nextAfter: query!.after === undefined ? cursor : null, forecastMonthUsd: null }), asked),
    );
    renderWith(store, <Agenda />);
    const timeline = await screen.findByRole('table');
    const headers = within(timeline).getAllByRole('columnheader');
    expect(within(headers[2]).getByTestId('agenda-cut').textContent).toMatch(/^shown until 10:20(\s?AM)?: the first 7 fires so far$/);
    expect(within(headers[1]).queryByTestId('agenda-cut')).toBeNull();
    expect(screen.getByTestId('agenda-cut-notice').textContent).toMatch(/^Showing the first 7 fires of these 8 days: more are due, so .+ is shown only until 10:20(\s?AM)?, and the days after it are not shown yet\.$/);
    const pollerRow = () => within(screen.getByRole('table')).getAllByRole('row').find((row) => within(row).queryByRole('rowheader')?.textContent === 'Poll the queue')!;
    expect(within(within(pollerRow()).getAllByRole('cell')[1]).getAllByRole('listitem')).toHaveLength(3);

    fireEvent.click(screen.getByRole('button', { name: 'Show more fires' }));
    await waitFor(() => expect(screen.queryByTestId('agenda-cut-notice')).toBeNull());
    expect(asked.at(-1)).toEqual({ from: at(0, 0), to: at(8, 0), limit: 2000, after: cursor });
    // Every fire once: the poller's six tomorrow are counted, the digest's skipped fire the day after shows.
    expect(within(within(pollerRow()).getAllByRole('cell')[1]).getAllByRole('listitem').map((each) => each.textContent)).toEqual(['◷ 6 due']);
    expect(screen.queryByRole('button', { name: 'Show more fires' })).toBeNull();
    expect(screen.queryByTestId('agenda-cut')).toBeNull();
    unregister();
  });

  it('keeps a "Show more fires" press made while a reload is under way (the reload reads as far as asked)', async () => {
    const { client, unregister } = ipcClientOf(t);
    const cursor = `${at(1, 10, 20)}|aut_01POLLER`;
    const first = entries.filter((each) => each.dueAt <= at(1, 10, 20));
    const rest = entries.filter((each) => each.dueAt > at(1, 10, 20));
    let hold: Promise<void> | undefined;
    const asked: CallInput['query'][] = [];
    const answer = (query: CallInput['query']): AgendaShape => ({ from: String(query!.from), to: String(query!.to), entries: query!.after === undefined ? first : rest, nextAfter: query!.after === undefined ? cursor : null, forecastMonthUsd: null });
    const store = createAppStore({
      subscribe: (listener) => client.subscribe(listener),
      call: (async (name: Parameters<StewardClient['call']>[0], input?: CallInput) => {
        if (name !== 'agenda.get') return client.call(name, input);
        asked.push(input?.query);
        // A reload's first page is held until released: it was asked for before the press.
        if (input?.query?.after === undefined && hold) await hold;
        return { agenda: answer(input?.query) };
      }) as StewardClient['call'],
    });
    renderWith(store, <Agenda />);
    await screen.findByTestId('agenda-cut-notice');
    // The first load's button comes back only once its action has ended (a busy machine can paint the page before).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reload' }).hasAttribute('disabled')).toBe(false));
    let release!: () => void;
    hold = new Promise<void>((resolve) => (release = resolve));
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(asked).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Show more fires' }));
    await waitFor(() => expect(screen.queryByTestId('agenda-cut-notice')).toBeNull());
    release();
    hold = undefined;
    // The reload lands with its first page, then reads on to what the press asked for: nothing is undone.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reload' }).hasAttribute('disabled')).toBe(false));
    expect(screen.queryByTestId('agenda-cut-notice')).toBeNull();
    expect(asked.filter((query) => query?.after === cursor).length).toBeGreaterThanOrEqual(2);
    unregister();
  });
});
