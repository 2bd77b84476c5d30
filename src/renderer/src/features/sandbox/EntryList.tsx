// A list of short entries (hosts, paths) edited one row at a time: add, remove, and each row
// checked as it is typed, its problem beside it and tied to it for screen readers.
import { useId } from 'react';

export function EntryList(props: {
  legend: string;
  hint: string;
  /** Names each row: "Allowed host 2". */
  itemLabel: string;
  addLabel: string;
  placeholder: string;
  entries: string[];
  onChange: (entries: string[]) => void;
  problemOf: (entry: string) => string | undefined;
}) {
  const { entries, onChange } = props;
  const id = useId();
  return (
    <fieldset className="args entries" aria-describedby={`${id}-hint`}>
      <legend>{props.legend}</legend>
      <div className="hint" id={`${id}-hint`}>{props.hint}</div>
      {entries.map((entry, index) => {
        const problem = props.problemOf(entry);
        const errorId = `${id}-${index}-error`;
        return (
          <div key={index}>
            <div className="row">
              <input
                className="mono"
                aria-label={`${props.itemLabel} ${index + 1}`}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? errorId : undefined}
                placeholder={props.placeholder}
                value={entry}
                // A row just added takes the focus; rows already there never do.
                autoFocus={entry === '' && index === entries.length - 1}
                onChange={(event) => onChange(entries.map((each, at) => (at === index ? event.target.value : each)))}
              />
              <button type="button" aria-label={`Remove ${props.itemLabel.toLowerCase()} ${index + 1}`} onClick={() => onChange(entries.filter((_, at) => at !== index))}>Remove</button>
            </div>
            {problem && <div className="error" id={errorId}>{problem}</div>}
          </div>
        );
      })}
      <button type="button" onClick={() => onChange([...entries, ''])}>{props.addLabel}</button>
    </fieldset>
  );
}
