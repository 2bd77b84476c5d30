// What each API key scope lets a key do, in words, beside the keys in Settings. Scopes nest:
// admin ⊃ runs ⊃ read (src/shared/contract/common.ts); each operation's own is in docs/api.md.
import type { Scope } from '../../../../shared/contract';

export const scopeWords: Record<Scope, string> = {
  read: 'Reads everything Steward shows (instances, automations, runs and their transcripts, activity, settings), but no webhook trigger URL and no secret. Changes nothing.',
  runs: 'What read does, and starts and cancels runs, and sees webhooks with their trigger URLs (which start runs). For a script or CI that sends prompts.',
  admin: 'Everything: creates, edits and deletes, decides approvals (and sees their decision links), manages keys, secrets, the tunnel and settings. Like this app.',
};

export function KeyScopes() {
  return (
    <div role="group" aria-label="What the scopes allow" className="hint">
      <dl className="key-scopes">
        {(Object.keys(scopeWords) as Scope[]).map((scope) => (
          <div key={scope}>
            <dt><code>{scope}</code></dt>
            <dd>{scopeWords[scope]}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
