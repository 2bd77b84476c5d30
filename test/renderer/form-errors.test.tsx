// @vitest-environment jsdom
// The pieces behind "forms that say what is wrong" (the real clicks are test/e2e/forms.test.ts): a
// refused submit focuses the first field in error, or a form-wide error line; Steward's own lines
// show local times with the ISO on hover; how a run of an automation started; a card's retry
// policy and budget in words.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorLine, Field, useAction } from '../../src/renderer/src/ui/widgets';
import { TimesInText } from '../../src/renderer/src/ui/TimesInText';
import { runOrigin } from '../../src/renderer/src/features/automations/run-origin';
import { budgetWords, retryWords } from '../../src/renderer/src/features/reliability/policy-words';
import { ApiError } from '../../src/renderer/src/lib/api';

afterEach(cleanup);

function Form({ fieldError }: { fieldError: boolean }) {
  const action = useAction();
  const submit = () => void action.run(async () => {
    throw new ApiError('invalid_field', fieldError ? 'Name is required.' : 'Something no field shows.', fieldError ? 'name' : 'other');
  });
  return (
    <form ref={action.formRef} aria-label="Try" onSubmit={(event) => { event.preventDefault(); submit(); }}>
      <Field label="Name" error={action.errorFor('name')}><input /></Field>
      <Field label="Prompt"><textarea /></Field>
      <ErrorLine message={action.generalError(['name'])} />
      <button type="submit">Save</button>
    </form>
  );
}

describe('a refused submit', () => {
  it('focuses the first field in error', async () => {
    render(<Form fieldError />);
    screen.getByRole('button', { name: 'Save' }).focus();
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save' })); });
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
  });
  it('focuses a form-wide error line when no field owns the error', async () => {
    render(<Form fieldError={false} />);
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save' })); });
    const line = screen.getByRole('alert');
    expect(line.textContent).toBe('Something no field shows.');
    expect(document.activeElement).toBe(line);
  });
});

describe('times in Steward’s own lines', () => {
  it('read in local words, the ISO on hover', () => {
    const { container } = render(<p><TimesInText text="Retrying at 2026-05-04T09:30:00Z (retry 1 of 2): network failure" /></p>);
    const time = container.querySelector('time')!;
    expect(time.getAttribute('dateTime')).toBe('2026-05-04T09:30:00Z');
    expect(time.getAttribute('title')).toBe('2026-05-04T09:30:00Z');
    expect(time.textContent).not.toContain('T09:30');
    expect(container.textContent).toMatch(/^Retrying at .+2026.+ \(retry 1 of 2\): network failure$/);
  });
});

describe('an automation’s runs and policies in words', () => {
  const scheduled = { trigger: null, createdByRunId: null };
  it('says how each run started', () => {
    expect(runOrigin({ scheduledFor: '2026-05-04T09:30:00.000Z', retryOf: null, parentRunId: null }, scheduled)).toBe('scheduled');
    expect(runOrigin({ scheduledFor: null, retryOf: null, parentRunId: null }, scheduled)).toBe('by hand');
    expect(runOrigin({ scheduledFor: '2026-05-04T09:30:00.000Z', retryOf: 'run_1', parentRunId: null }, scheduled)).toBe('retry');
    const chained = { trigger: { after: { automationId: 'aut_1', on: ['succeeded' as const] } }, createdByRunId: 'run_maker' };
    expect(runOrigin({ scheduledFor: null, retryOf: null, parentRunId: 'run_before' }, chained)).toBe('after another automation');
    expect(runOrigin({ scheduledFor: null, retryOf: null, parentRunId: 'run_maker' }, chained)).toBe('by hand');
  });
  it('says its retry policy and budget', () => {
    expect(retryWords({ attempts: 0, backoffSeconds: 30, on: ['network'] })).toBe('No retries');
    expect(retryWords({ attempts: 1, backoffSeconds: 120, on: ['network'] })).toBe('1 retry, the first after 2 min, on: network failure');
    expect(budgetWords({})).toBe('No budget');
    expect(budgetWords({ usdPerMonth: 20, usdPerRun: 0.5 })).toBe('$20.00 a month · $0.50 a run');
  });
});
