// The {{placeholders}} each place fills, and the check the contract and the forms share.
import { describe, expect, it } from 'vitest';
import { quotesPreviousRun, unknownPlaceholderProblem, unknownPlaceholders } from '../../src/shared/placeholders';
import { renderChainPrompt } from '../../src/main/core/services/chains';

describe('unknown placeholders', () => {
  it('in an automation prompt: anything but {{previous.output|status|runId|summary}}', () => {
    expect(unknownPlaceholders('Post {{previous.output}} ({{ previous.status }}, {{previous.runId}}, {{previous.summary}})', 'automation')).toEqual([]);
    expect(unknownPlaceholders('Post {{previous.ouput}} and {{nosuch}} and {{nosuch}} and {{payload}}', 'automation')).toEqual(['{{previous.ouput}}', '{{nosuch}}', '{{payload}}']);
  });
  it('in a webhook template: anything but payload, its fields, headers and query parameters', () => {
    expect(unknownPlaceholders('{{payload}} {{payload.a.b[0]}} {{payload["odd.key"]}} {{headers.x-github-event}} {{query.name}}', 'webhook')).toEqual([]);
    expect(unknownPlaceholders('{{payloads}} {{other.x}} {{PAYLOAD}} {{previous.output}}', 'webhook')).toEqual(['{{payloads}}', '{{other.x}}', '{{PAYLOAD}}', '{{previous.output}}']);
  });
  it('leaves braces with a space inside, single braces and JSON alone: they are text', () => {
    expect(unknownPlaceholders('{{ user.name }} {payload} {"a": {"b": 1}} {{}}', 'automation')).toEqual([]);
    expect(unknownPlaceholders('{{ user.name }} {{payload}}', 'webhook')).toEqual([]);
  });
  it('says what is wrong and what the place takes', () => {
    expect(unknownPlaceholderProblem('{{nosuch}}', 'automation')).toBe(
      "Unknown placeholder {{nosuch}}: it would be sent as written. An automation's prompt takes {{previous.output}}, {{previous.status}}, {{previous.runId}} and {{previous.summary}}, the run it follows (for an automation that runs after another), and {{event}} and {{event.field}} (for one started by a file, a commit, a message or a feed item); to send double braces as text, put a space inside them, as {{ this }}.",
    );
    expect(unknownPlaceholderProblem('fine', 'webhook')).toBeUndefined();
  });
  it('is the rule the core renders chained prompts with', () => {
    const previous = { output: 'O', status: 'S', runId: 'R', summary: 'M' };
    expect(renderChainPrompt('{{previous.output}} {{ previous.status }} {{previous.runId}} {{previous.summary}} {{previous.other}}', previous)).toBe('O S R M {{previous.other}}');
    expect(quotesPreviousRun('a {{ previous.output }}')).toBe(true);
    expect(quotesPreviousRun('a {{previous.other}}')).toBe(false);
  });
});
