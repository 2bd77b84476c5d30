// The built-in agent's tools by group (the agent config's `tools`).
import type { OpenAiToolGroup } from '../../../../shared/contract';
import type { Caller } from '../../caller';
import type { Dispatch } from '../../operation-call';
import { fileTools } from './files';
import { httpTool } from './http';
import { shellTool } from './shell';
import { stewardTools } from './steward';
import type { Tool } from './tool';

/** `caller`: who `dispatch` calls as (the run), which decides the steward tools offered. */
export function toolsFor(groups: readonly OpenAiToolGroup[], dispatch: Dispatch, caller: Caller): Tool[] {
  const byGroup: Record<OpenAiToolGroup, () => Tool[]> = {
    shell: () => [shellTool],
    files: () => fileTools,
    http: () => [httpTool],
    steward: () => stewardTools(dispatch, caller),
  };
  return groups.flatMap((group) => byGroup[group]());
}

export type { Tool, ToolContext } from './tool';
export { ToolError } from './tool';
