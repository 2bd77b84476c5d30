// The event filter in the When section: rows of field, test and value, all of which must hold for
// an event to start a run (an event that fails one is recorded skipped). The field suggests the
// kind's own fields.
import { useId } from 'react';
import { Field } from '../../ui/widgets';
import { type FilterRow, type FilterTest, type WhenProblems, filterTests } from './when-draft';

const testWords: Record<FilterTest, string> = { contains: 'contains', equals: 'is', in: 'is one of', exists: 'is present', absent: 'is absent' };

export function FilterRows(props: { rows: FilterRow[]; fields: readonly string[]; problems: WhenProblems; onChange: (rows: FilterRow[]) => void }) {
  const list = useId();
  const { rows, onChange } = props;
  const set = (index: number, row: Partial<FilterRow>) => onChange(rows.map((each, at) => (at === index ? { ...each, ...row } : each)));
  return (
    <fieldset className="filter-rows">
      <legend>Only when</legend>
      <datalist id={list}>{props.fields.map((field) => <option key={field} value={field} />)}</datalist>
      {rows.length === 0 && <div className="hint">Every event starts a run. Add a condition to start runs only for some.</div>}
      {rows.map((row, index) => (
        <div className="filter-row" role="group" aria-label={`Condition ${index + 1}`} key={index}>
          <Field label="Field" error={props.problems[`filter.${index}.field`]}>
            <input className="mono" list={list} value={row.field} placeholder={props.fields[0]} onChange={(event) => set(index, { field: event.target.value })} />
          </Field>
          <Field label="Test">
            <select value={row.test} onChange={(event) => set(index, { test: event.target.value as FilterTest })}>
              {filterTests.map((test) => <option key={test} value={test}>{testWords[test]}</option>)}
            </select>
          </Field>
          {row.test !== 'exists' && row.test !== 'absent' && (
            <Field label="Value" error={props.problems[`filter.${index}.value`]} hint={row.test === 'in' ? 'Separate the values with commas.' : undefined}>
              <input value={row.value} onChange={(event) => set(index, { value: event.target.value })} />
            </Field>
          )}
          <button type="button" aria-label={`Remove condition ${index + 1}`} onClick={() => onChange(rows.filter((_, at) => at !== index))}>Remove</button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...rows, { field: '', test: 'contains', value: '' }])} disabled={rows.length >= 20}>Add a condition</button>
      {rows.length > 0 && <div className="hint tokens">This trigger's fields: {props.fields.map((field, index) => <span key={field}>{index > 0 && ', '}<code>{field}</code></span>)}.</div>}
      {props.problems.filter && <div className="error" role="alert">{props.problems.filter}</div>}
    </fieldset>
  );
}
