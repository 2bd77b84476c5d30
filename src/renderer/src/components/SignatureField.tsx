// A webhook's signature check: the scheme (GitHub, Stripe, Standard Webhooks, Slack) and its
// secret, for WebhookCreate/WebhookUpdate's `signature`. The secret is write-only: an edited
// webhook that has one shows the scheme only, and leaving the secret empty keeps it.
import { useState } from 'react';
import { type SignatureScheme, signatureSchemes } from '../../../shared/contract';
import { Field } from './ui';

/** What the form sends: undefined keeps the stored check, null removes it. */
export type SignatureValue = { scheme: SignatureScheme; secret: string } | null | undefined;

const schemeNames: Record<SignatureScheme, string> = {
  github: 'GitHub (X-Hub-Signature-256)',
  stripe: 'Stripe (Stripe-Signature)',
  standard: 'Standard Webhooks (webhook-signature)',
  slack: 'Slack (X-Slack-Signature)',
};

/** A problem with the secret in words, before the server is asked. */
export function signatureProblem(value: SignatureValue): string | undefined {
  if (!value) return undefined;
  if (value.secret.length < 8) return 'The secret must be at least 8 characters.';
  return value.secret.length > 1024 ? 'The secret must be at most 1024 characters.' : undefined;
}

export function SignatureField(props: {
  /** The stored check, as `webhook.signature` gives it (null or undefined: none). */
  current: { scheme: SignatureScheme } | null | undefined;
  /** The scheme to offer first when there is no stored check (the sender's). */
  suggested?: SignatureScheme | undefined;
  onChange: (value: SignatureValue) => void;
  error?: string | undefined;
}) {
  const [scheme, setScheme] = useState<SignatureScheme | 'none'>(props.current?.scheme ?? props.suggested ?? 'none');
  const [secret, setSecret] = useState('');
  const [touched, setTouched] = useState(false);
  const update = (nextScheme: SignatureScheme | 'none', nextSecret: string) => {
    setScheme(nextScheme);
    setSecret(nextSecret);
    if (nextScheme === 'none') props.onChange(props.current ? null : undefined);
    // The stored secret stays while none is typed, unless the scheme changed (it needs one).
    else if (nextSecret === '' && props.current?.scheme === nextScheme) props.onChange(undefined);
    else props.onChange({ scheme: nextScheme, secret: nextSecret });
  };
  const problem = touched && scheme !== 'none' ? signatureProblem(secret === '' && props.current?.scheme === scheme ? undefined : { scheme, secret }) : undefined;
  return (
    <fieldset className="args">
      <legend>Signature check</legend>
      <Field label="Scheme" hint="Requests without a valid signature are refused (401).">
        <select value={scheme} onChange={(event) => update(event.target.value as SignatureScheme | 'none', secret)}>
          <option value="none">None: anyone with the URL can trigger it</option>
          {signatureSchemes.map((each) => <option key={each} value={each}>{schemeNames[each]}</option>)}
        </select>
      </Field>
      {scheme !== 'none' && (
        <Field
          label="Signing secret"
          error={props.error ?? problem}
          hint={props.current?.scheme === scheme ? 'Stored, never shown. Leave empty to keep it; type a new one to replace it.' : 'The secret the sender signs with; stored encrypted, never shown again.'}
        >
          <input type="password" autoComplete="off" value={secret} onBlur={() => setTouched(true)} onChange={(event) => update(scheme, event.target.value)} />
        </Field>
      )}
    </fieldset>
  );
}
