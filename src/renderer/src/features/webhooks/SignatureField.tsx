// A webhook's signature check: the scheme (GitHub, Stripe, Standard Webhooks, Slack) and its
// secret, for WebhookCreate/WebhookUpdate's `signature`. What the field shows is what is saved: the
// editor holds the scheme and secret shown, and a scheme shown without a secret (and none stored
// for it) cannot be saved, since it would check nothing. The secret is write-only: an edited webhook
// that has one shows the scheme only, and leaving the secret empty keeps it.
import { type SignatureScheme, signatureSchemes } from '../../../../shared/contract';
import { signatureSchemeNames } from '../../../../shared/webhook-check';
import { Field } from '../../ui/widgets';

/** What the form shows: a scheme (or none) and the secret typed. */
export interface ShownCheck {
  scheme: SignatureScheme | 'none';
  secret: string;
}

/** What the form sends: undefined keeps the stored check, null removes it. */
export type SignatureValue = { scheme: SignatureScheme; secret: string } | null | undefined;

type Stored = { scheme: SignatureScheme } | null | undefined;

/** The check shown, as the API takes it; `problem` when it cannot be saved as shown. */
export function signatureOf(shown: ShownCheck, stored: Stored): { value: SignatureValue; problem?: string } {
  if (shown.scheme === 'none') return { value: stored ? null : undefined };
  const keepsStored = shown.secret === '' && stored?.scheme === shown.scheme;
  if (keepsStored) return { value: undefined };
  if (shown.secret === '') return { value: undefined, problem: `Type the signing secret, or choose None: ${signatureSchemeNames[shown.scheme]} without its secret would check nothing.` };
  if (shown.secret.length < 8) return { value: undefined, problem: 'The secret must be at least 8 characters.' };
  if (shown.secret.length > 1024) return { value: undefined, problem: 'The secret must be at most 1024 characters.' };
  return { value: { scheme: shown.scheme, secret: shown.secret } };
}

export function SignatureField(props: { shown: ShownCheck; stored: Stored; onChange: (shown: ShownCheck) => void; error?: string | undefined }) {
  const { shown, stored } = props;
  return (
    <fieldset className="args">
      <legend>Signature check</legend>
      <Field label="Scheme" hint={shown.scheme === 'none' ? 'Anyone with the trigger URL can trigger it.' : 'Requests without a valid signature are refused (401).'}>
        <select value={shown.scheme} onChange={(event) => props.onChange({ ...shown, scheme: event.target.value as ShownCheck['scheme'] })}>
          <option value="none">None: anyone with the URL can trigger it</option>
          {signatureSchemes.map((each) => <option key={each} value={each}>{signatureSchemeNames[each]}</option>)}
        </select>
      </Field>
      {shown.scheme !== 'none' && (
        <Field
          label="Signing secret"
          error={props.error}
          hint={stored?.scheme === shown.scheme ? 'Stored, never shown. Leave empty to keep it; type a new one to replace it.' : 'Required: the secret the sender signs with; stored encrypted, never shown again.'}
        >
          <input type="password" autoComplete="off" value={shown.secret} onChange={(event) => props.onChange({ ...shown, secret: event.target.value })} />
        </Field>
      )}
    </fieldset>
  );
}
