// What an apply changes (or changed): its summary, then each change with its kind, name, action,
// note and diff. The diff's "-" lines are marked removed and its "+" lines added; it scrolls inside
// its own box, so a long line never widens the page.
import type { ConfigPlan } from '../../../../shared/contract';

function DiffLines({ diff, label }: { diff: string; label: string }) {
  return (
    <pre className="config-diff" aria-label={label} tabIndex={0}>
      {diff.split('\n').map((line, index) => {
        const kind = line.startsWith('-') ? 'removed' : line.startsWith('+') ? 'added' : undefined;
        return <span key={index} className={kind} data-line={kind}>{line || ' '}</span>;
      })}
    </pre>
  );
}

const actionWords = { add: 'add', change: 'change', delete: 'delete' } as const;

export function ConfigChanges({ plan, heading }: { plan: ConfigPlan; heading: string }) {
  return (
    <div data-testid="config-plan">
      <div role="status"><strong>{heading}</strong> {plan.summary}</div>
      {plan.changes.length > 0 && (
        <ul className="config-changes" aria-label="Changes">
          {plan.changes.map((change) => (
            <li key={`${change.kind}/${change.name}/${change.action}`} aria-label={`${actionWords[change.action]} ${change.kind} ${change.name}`}>
              <div className="config-change-head">
                <span className={`badge ${change.action}`}>{actionWords[change.action]}</span>
                <span className="hint">{change.kind}</span>
                <strong>{change.name}</strong>
                {change.file && <span className="hint mono" title={change.file}>{change.file}</span>}
              </div>
              {change.note && <div className="warning">{change.note}</div>}
              {change.diff && <DiffLines diff={change.diff} label={`What changes in ${change.kind} ${change.name}`} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
