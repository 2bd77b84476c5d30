// The check a webhook's trigger requests pass, in words: the same sentence in the API's read model
// (`checkInForce`) and on the webhook's card, so neither can say a check is there when it is not.
import type { Sender, SignatureScheme } from './contract';
import { senderPresets } from './webhook-senders';

export const signatureSchemeNames: Record<SignatureScheme, string> = {
  github: 'GitHub (X-Hub-Signature-256)',
  stripe: 'Stripe (Stripe-Signature)',
  standard: 'Standard Webhooks (webhook-signature)',
  slack: 'Slack (X-Slack-Signature)',
};

const senderNames: Record<Sender, string> = { generic: 'The sender', github: 'GitHub', stripe: 'Stripe', slack: 'Slack' };

export function describeCheck(signature: { scheme: SignatureScheme } | null, sender: Sender): string {
  if (signature) return `Signature ${signatureSchemeNames[signature.scheme]}: a request without a valid one is refused (401).`;
  const signs = senderPresets[sender].signatureScheme;
  const hint = signs ? ` ${senderNames[sender]} signs its requests: give this webhook the signing secret to check them.` : '';
  return `None: anyone with the trigger URL can trigger it.${hint}`;
}
