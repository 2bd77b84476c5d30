// The runs list's filters: status, source and instance, each "any" by default.
import { type Instance, type RunSource, type RunStatus, runSources, runStatuses } from '../../../../shared/contract';
import type { RunFilter } from './run-list-slice';
import { Field, statusText } from '../../ui/widgets';
import { instanceLabel } from '../instances/instance-label';

export function RunFilters({ filter, instances, onChange }: { filter: RunFilter; instances: Instance[]; onChange: (filter: RunFilter) => void }) {
  return (
    <form className="bar run-filters" aria-label="Filter runs" onSubmit={(event) => event.preventDefault()}>
      <Field label="Status">
        <select value={filter.status ?? ''} onChange={(event) => onChange({ ...filter, status: (event.target.value || undefined) as RunStatus | undefined })}>
          <option value="">Any status</option>
          {runStatuses.map((status) => <option key={status} value={status}>{statusText(status)}</option>)}
        </select>
      </Field>
      <Field label="Source">
        <select value={filter.source ?? ''} onChange={(event) => onChange({ ...filter, source: (event.target.value || undefined) as RunSource | undefined })}>
          <option value="">Any source</option>
          {runSources.map((source) => <option key={source} value={source}>{source}</option>)}
        </select>
      </Field>
      <Field label="Instance">
        <select value={filter.instanceId ?? ''} onChange={(event) => onChange({ ...filter, instanceId: event.target.value || undefined })}>
          <option value="">Any instance</option>
          {instances.map((instance) => <option key={instance.id} value={instance.id}>{instanceLabel(instance)}</option>)}
        </select>
      </Field>
    </form>
  );
}
