// What an agent's tool call asks permission for, in words a person decides on: the command, the
// file and its change, the URL.
import type { ApprovalDetail } from '../../../shared/contract';
import { oneLine } from '../../../shared/format';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A unified-looking diff of an edit's old and new text. */
function editDiff(before: string, after: string): string {
  return [...before.split('\n').map((line) => `- ${line}`), ...after.split('\n').map((line) => `+ ${line}`)].join('\n');
}

export function describePermission(tool: string, input: Record<string, unknown>): { title: string; detail: ApprovalDetail } {
  const command = text(input.command) ?? text(input.cmd);
  const path = text(input.file_path) ?? text(input.path) ?? text(input.notebook_path);
  const url = text(input.url);
  const oldText = text(input.old_string);
  const newText = text(input.new_string) ?? text(input.content);
  const diff = oldText !== undefined && newText !== undefined ? editDiff(oldText, newText) : newText !== undefined && path !== undefined ? editDiff('', newText).replace(/^- \n/, '') : undefined;
  const what = command ? `run ${oneLine(command, 100)}` : path ? `${oldText !== undefined ? 'edit' : newText !== undefined ? 'write' : 'use'} ${path}` : url ? `fetch ${url}` : `use ${tool}`;
  return {
    title: `The agent wants to ${what}`,
    detail: {
      text: `${tool}: ${oneLine(JSON.stringify(input), 500)}`,
      tool,
      input,
      ...(command ? { command } : {}),
      ...(path ? { path } : {}),
      ...(diff ? { diff } : {}),
      ...(url ? { url } : {}),
    },
  };
}
