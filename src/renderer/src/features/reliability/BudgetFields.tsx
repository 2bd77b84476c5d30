// The Budget section of the automation editor and the instance form: dollars a day, a month and a
// run, tokens a day (each empty for no limit), and whether the agent reports cost at all (else only
// its tokens count).
import { useState } from 'react';
import type { AgentConfig, Budget } from '../../../../shared/contract';
import { reportsCost } from '../../../../shared/agent-costs';
import { type BudgetDraft, type BudgetField, type Problems, budgetDraftOf, budgetToSave } from './drafts';
import { Field } from '../../ui/widgets';

/** The form's draft of a budget, and `ready()`: the budget to send, or undefined after marking what to fix. */
export function useBudgetDraft(initial: Budget) {
  const [draft, setDraft] = useState<BudgetDraft>(() => budgetDraftOf(initial));
  const [problems, setProblems] = useState<Problems<BudgetField>>({});
  const change = (next: BudgetDraft) => {
    setDraft(next);
    setProblems({});
  };
  const ready = (): Budget | undefined => {
    const checked = budgetToSave(draft);
    setProblems(checked.ok ? {} : checked.problems);
    return checked.ok ? checked.budget : undefined;
  };
  return { draft, change, problems, ready };
}

const agentName = (agent: AgentConfig) => (agent.provider === 'openai' ? agent.model : agent.provider === 'acp' ? agent.command : agent.preset === 'custom' ? 'A custom command' : agent.preset);

/** Whether the agent's runs count in dollars or only in tokens, in words. */
export function costNote(agent: AgentConfig | undefined): string {
  if (!agent) return 'Only Claude Code and OpenCode report what a run costs; other agents count their tokens only.';
  return reportsCost(agent)
    ? `${agentName(agent)} reports what each run costs: the dollar limits apply.`
    : `${agentName(agent)} reports no cost, only tokens: its runs count toward the token limit only.`;
}

const labels: Record<BudgetField, [string, string]> = {
  usdPerDay: ['US$ a day', '2.50'],
  usdPerMonth: ['US$ a month', '40'],
  tokensPerDay: ['Tokens a day', '1000000'],
  usdPerRun: ['US$ a run', '0.50'],
};

export function BudgetFields(props: { budget: ReturnType<typeof useBudgetDraft>; errorFor: (field: string) => string | undefined; agent: AgentConfig | undefined; dayIn: string }) {
  const { draft, change, problems } = props.budget;
  return (
    <fieldset className="section">
      <legend>Budget</legend>
      <p className="hint">
        Empty: no limit. A run that would start at or over a limit does not start; a run that passes the limit a run is cancelled. Days are counted in {props.dayIn}.
      </p>
      <p className="hint" data-testid="cost-note">{costNote(props.agent)}</p>
      <div className="grid-2">
        {(Object.keys(labels) as BudgetField[]).map((field) => (
          <Field key={field} label={labels[field][0]} error={problems[field] ?? props.errorFor(`budget.${field}`)}>
            <input inputMode="decimal" value={draft[field]} placeholder={`no limit (e.g. ${labels[field][1]})`} onChange={(event) => change({ ...draft, [field]: event.target.value })} />
          </Field>
        ))}
      </div>
    </fieldset>
  );
}
