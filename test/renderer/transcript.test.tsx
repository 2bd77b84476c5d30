// @vitest-environment jsdom
// The transcript component alone: long tool output cut to its first lines until "Show all", and a
// search that keeps and marks the matching messages with a count.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Transcript } from '../../src/renderer/src/features/runs/Transcript';
import type { Message } from '../../src/shared/contract';

afterEach(cleanup);

const at = '2026-11-23T12:00:00.000Z';
const message = (seq: number, role: Message['role'], content: string): Message => ({ seq, runId: 'run_1', role, content, createdAt: at });
const output = Array.from({ length: 20 }, (_, index) => `output ${index + 1}`).join('\n');

describe('the transcript', () => {
  it('shows the first lines of long tool output until "Show all"', () => {
    render(<Transcript messages={[message(1, 'user', 'List the files'), message(2, 'tool', output), message(3, 'assistant', 'Done.')]} />);
    const log = screen.getByRole('log', { name: 'Transcript' });
    // jsdom does not open a <details> on a click of its summary: open it as the browser would.
    const details = log.querySelector('details')!;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    expect(within(log).getByText(/output 6$/)).toBeTruthy();
    expect(within(log).queryByText(/output 7/)).toBeNull();
    fireEvent.click(within(log).getByRole('button', { name: 'Show all 20 lines' }));
    expect(within(log).getByText(/output 20$/)).toBeTruthy();
  });

  it('keeps and marks the messages a search finds, with a count', () => {
    render(<Transcript messages={[message(1, 'user', 'Find the bug'), message(2, 'assistant', 'The bug is in parse.ts'), message(3, 'assistant', 'Fixed the BUG.'), message(4, 'assistant', 'All green.')]} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search this run' }), { target: { value: 'bug' } });
    expect(screen.getByRole('status').textContent).toBe('3 matching messages');
    const log = screen.getByRole('log', { name: 'Transcript' });
    expect([...log.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['bug', 'bug', 'BUG']);
    expect(within(log).queryByText('All green.')).toBeNull();
  });
});
