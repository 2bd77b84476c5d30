// The agenda: every automation's due fires in a window, as of its last load, read a page at a time
// (a busy week holds more fires than one answer should carry); "Show more" adds the next page.
import type { Agenda } from '../../../../shared/contract';
import type { Slice } from '../../store';

/** Fires asked for per page. */
export const agendaPageSize = 2000;

export interface AgendaSlice {
  agenda: Agenda | undefined;
  /** The window's first pages, as many fires as were shown before (a reload keeps what "Show more" added). */
  loadAgenda: (from: string, to: string) => Promise<void>;
  /** Adds the next page of the window to the agenda shown; nothing when the last page is shown. */
  loadMoreAgenda: () => Promise<void>;
}

export const agendaSlice: Slice<AgendaSlice> = (set, get) => {
  const page = (from: string, to: string, after: string | null) =>
    get().client.call('agenda.get', { query: { from, to, limit: agendaPageSize, ...(after === null ? {} : { after }) } }).then((answer) => answer.agenda);
  // How many fires of which window the person asked to see: every "Show more" raises it, and a
  // reload under way reads up to it, so that a press made while one runs is never undone by it.
  let wanted = { window: '', entries: 0 };
  const windowOf = (from: string, to: string) => `${new Date(from).toISOString()}/${new Date(to).toISOString()}`;

  return {
    agenda: undefined,
    async loadAgenda(from, to) {
      const window = windowOf(from, to);
      if (wanted.window !== window) wanted = { window, entries: 0 };
      let agenda = await page(from, to, null);
      while (agenda.nextAfter !== null && agenda.entries.length < wanted.entries) {
        const next = await page(from, to, agenda.nextAfter);
        agenda = { ...next, entries: [...agenda.entries, ...next.entries] };
      }
      set({ agenda });
    },
    async loadMoreAgenda() {
      const shown = get().agenda;
      if (!shown || shown.nextAfter === null) return;
      const window = windowOf(shown.from, shown.to);
      wanted = { window, entries: Math.max(wanted.window === window ? wanted.entries : 0, shown.entries.length + agendaPageSize) };
      const next = await page(shown.from, shown.to, shown.nextAfter);
      if (get().agenda === shown) {
        set({ agenda: { ...next, entries: [...shown.entries, ...next.entries] } });
        return;
      }
      // A reload landed meanwhile: it stands, read again as far as asked if it stopped short.
      const current = get().agenda;
      if (current && current.nextAfter !== null && current.entries.length < wanted.entries) await get().loadAgenda(shown.from, shown.to);
    },
  };
};
