// "Accepts prompts from": the other instances whose runs may send this one prompts (and read the
// runs they started here) through Steward's tools. A run reaches its own instance only unless the
// instance it prompts lists it here, and only while that instance is at least as confined as the
// sender (src/shared/confinement.ts): a sender it would refuse is marked, with the reason.
import { useId } from 'react';
import { type Confined, lessConfinedBy } from '../../../../shared/confinement';
import { useApp } from '../../lib/app-context';
import { ErrorLine } from '../../ui/widgets';

export function AcceptsPromptsFields(props: {
  /** The instance edited (undefined for a new one), as the form would save it. */
  selfId?: string | undefined;
  self: Confined;
  value: string[];
  onChange: (ids: string[]) => void;
  errorFor: (field: string) => string | undefined;
}) {
  const { instances } = useApp();
  const hint = useId();
  const others = instances.filter((instance) => instance.id !== props.selfId && instance.location === 'local');
  const toggle = (id: string, on: boolean) => props.onChange(on ? [...props.value, id] : props.value.filter((each) => each !== id));
  return (
    <fieldset className="section" aria-describedby={hint}>
      <legend>Accepts prompts from</legend>
      <div className="hint" id={hint}>
        Runs of the instances ticked here may send this one prompts with Steward’s tools, and read the runs they started. A run reaches only its own
        instance otherwise, and never one less confined than its own.
      </div>
      {others.length === 0 && <div className="hint">No other instance yet.</div>}
      {others.map((sender) => {
        const checked = props.value.includes(sender.id);
        const refused = checked ? lessConfinedBy(props.self, sender) : undefined;
        return (
          <div key={sender.id}>
            <label className="switch">
              <input type="checkbox" checked={checked} onChange={(event) => toggle(sender.id, event.target.checked)} />
              {sender.name}
            </label>
            {refused && (
              <div className="warning" role="status">
                {sender.name}’s runs will be refused while this instance is less confined: {refused}.
              </div>
            )}
          </div>
        );
      })}
      <ErrorLine message={props.errorFor('acceptsPromptsFrom')} />
    </fieldset>
  );
}
