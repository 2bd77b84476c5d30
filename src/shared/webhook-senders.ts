// Sender presets: what `"sender": "github" | "stripe" | "slack"` fills in when a webhook is
// created. Every field stays the user's to change afterwards; "generic" is the seed's defaults.
import { type SignatureScheme, type Sender, maxPayloadBytesLimit, maxTriggerBytes } from './contract';

export interface SenderPreset {
  /** The scheme a signature secret given without one is checked with. */
  signatureScheme: SignatureScheme | null;
  maxPayloadBytes: number;
  idempotencyKey: string | null;
  /** The template when the request gives none; null: the template is required. */
  promptTemplate: string | null;
}

export const senderPresets: Record<Sender, SenderPreset> = {
  generic: { signatureScheme: null, maxPayloadBytes: maxTriggerBytes, idempotencyKey: null, promptTemplate: null },
  github: {
    signatureScheme: 'github',
    maxPayloadBytes: maxPayloadBytesLimit,
    idempotencyKey: '{{headers.x-github-delivery}}',
    promptTemplate: [
      'GitHub sent a "{{headers.x-github-event}}" event (action: {{payload.action}}) for {{payload.repository.full_name}}, from {{payload.sender.login}}.',
      'Look into it and say what needs doing.',
      '',
      'The event as GitHub sent it:',
      '{{payload}}',
    ].join('\n'),
  },
  stripe: {
    signatureScheme: 'stripe',
    maxPayloadBytes: maxPayloadBytesLimit,
    idempotencyKey: '{{payload.id}}',
    promptTemplate: ['Stripe sent a "{{payload.type}}" event ({{payload.id}}).', '', 'The event as Stripe sent it:', '{{payload}}'].join('\n'),
  },
  slack: {
    signatureScheme: 'slack',
    maxPayloadBytes: maxPayloadBytesLimit,
    idempotencyKey: '{{payload.event_id}}',
    promptTemplate: [
      'Slack sent a "{{payload.event.type}}" event from {{payload.event.user}} in {{payload.event.channel}}:',
      '{{payload.event.text}}',
      '',
      'The event as Slack sent it:',
      '{{payload}}',
    ].join('\n'),
  },
};
