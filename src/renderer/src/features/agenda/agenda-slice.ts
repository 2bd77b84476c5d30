// The agenda: every automation's due fires in a window, as of its last load.
import type { Agenda } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface AgendaSlice {
  agenda: Agenda | undefined;
  loadAgenda: (from: string, to: string) => Promise<void>;
}

export const agendaSlice: Slice<AgendaSlice> = (set, get) => ({
  agenda: undefined,
  async loadAgenda(from, to) {
    const { agenda } = await get().client.call('agenda.get', { query: { from, to, limit: 10_000 } });
    set({ agenda });
  },
});
