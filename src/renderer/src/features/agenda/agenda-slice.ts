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

  return {
    agenda: undefined,
    async loadAgenda(from, to) {
      const shown = get().agenda;
      const wanted = shown?.from === new Date(from).toISOString() && shown.to === new Date(to).toISOString() ? shown.entries.length : 0;
      let agenda = await page(from, to, null);
      while (agenda.nextAfter !== null && agenda.entries.length < wanted) {
        const next = await page(from, to, agenda.nextAfter);
        agenda = { ...next, entries: [...agenda.entries, ...next.entries] };
      }
      set({ agenda });
    },
    async loadMoreAgenda() {
      const shown = get().agenda;
      if (!shown || shown.nextAfter === null) return;
      const next = await page(shown.from, shown.to, shown.nextAfter);
      // A reload that landed meanwhile stands: this page was read after what it replaced.
      if (get().agenda !== shown) return;
      set({ agenda: { ...next, entries: [...shown.entries, ...next.entries] } });
    },
  };
};
