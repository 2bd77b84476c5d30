// Picks a stored secret by name (an openai agent's apiKeyRef, an MCP server's header). A name that is not stored (any
// more) stays choosable, marked, so opening a form never changes what it saves.
import type { SelectHTMLAttributes } from 'react';
import { useApp } from '../../lib/app-context';

type Props = { value: string | undefined; onChange: (name: string | undefined) => void; noneLabel?: string } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'>;

export function SecretPicker({ value, onChange, noneLabel = 'None (the server needs no key)', ...select }: Props) {
  const { secrets } = useApp();
  const missing = value && !secrets.some((secret) => secret.name === value);
  return (
    <select {...select} className="mono" value={value ?? ''} onChange={(event) => onChange(event.target.value || undefined)}>
      <option value="">{noneLabel}</option>
      {secrets.map((secret) => <option key={secret.name} value={secret.name}>{secret.name}</option>)}
      {missing && <option value={value}>{value} (not stored)</option>}
    </select>
  );
}
