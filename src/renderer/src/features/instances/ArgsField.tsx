// The pieces a command is edited with, shared by the agent editor and the MCP servers editor
// (both run a program): its arguments one input each, and its environment as NAME=value lines.
import { useEffect, useId, useRef } from 'react';
import { agentEnvBaseText } from '../../../../shared/contract';

/** Under an agent's environment: it is built, never Steward's own (agents/agent-environment.ts). */
export const agentEnvHint = `NAME=value, one per line. The agent gets only ${agentEnvBaseText} from Steward’s environment, and what you list here (or pass on by name under the sandbox).`;

/** A list of arguments, one input each, added and removed one at a time. */
export function ArgsField({ label, args, onChange, error }: { label: string; args: string[]; onChange: (args: string[]) => void; error?: string | undefined }) {
  const id = useId();
  const box = useRef<HTMLFieldSetElement>(null);
  const adding = useRef(false);
  useEffect(() => {
    // The argument just added takes the focus: Add argument, then type.
    if (!adding.current) return;
    adding.current = false;
    [...(box.current?.querySelectorAll<HTMLInputElement>('input') ?? [])].at(-1)?.focus();
  }, [args.length]);
  return (
    <fieldset ref={box} className="args" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{label}</legend>
      {args.map((arg, index) => (
        <div className="row" key={index}>
          <input className="mono" aria-label={`Argument ${index + 1}`} value={arg} onChange={(event) => onChange(args.map((each, at) => (at === index ? event.target.value : each)))} />
          <button type="button" aria-label={`Remove argument ${index + 1}`} onClick={() => onChange(args.filter((_, at) => at !== index))}>Remove</button>
        </div>
      ))}
      <button type="button" onClick={() => { adding.current = true; onChange([...args, '']); }}>Add argument</button>
      {error && <div className="error" role="alert" id={`${id}-error`}>{error}</div>}
    </fieldset>
  );
}

export const envText = (env: Record<string, string> | undefined) => Object.entries(env ?? {}).map(([name, value]) => `${name}=${value}`).join('\n');

/** Lines parseEnv leaves out (no `=`), said at the field rather than dropped without a word. */
export function envLeftOut(text: string): string | undefined {
  const left = text.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.includes('='));
  if (left.length === 0) return undefined;
  return `${left.length === 1 ? 'This line has' : 'These lines have'} no "=" and ${left.length === 1 ? 'is' : 'are'} not used: ${left.map((line) => `"${line.slice(0, 40)}"`).join(', ')}. Write NAME=value.`;
}

export function parseEnv(text: string): Record<string, string> | undefined {
  const entries = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.includes('='))
    .map((line) => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1)] as const);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
