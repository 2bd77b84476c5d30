// An ACP agent's session/request_permission: shown to whoever decides for the run (launch.requestPermission)
// or, when no one does (an instance that approves everything), allowed at once, allow_once before
// allow_always. Either way the request and its answer are lines of the run.
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { oneLine } from '../../../shared/format';
import { toolContentText } from './acp-updates';
import type { AgentEvent, AgentLaunch, PermissionAnswer, PermissionRequest } from './events';

/** The request as a person would be shown it. */
export function permissionRequestOf(params: RequestPermissionRequest): PermissionRequest {
  const call = params.toolCall;
  const input = call.rawInput === undefined || call.rawInput === null ? '' : JSON.stringify(call.rawInput, null, 2);
  const paths = (call.locations ?? []).map((where) => where.path).join('\n');
  return {
    title: call.title ?? call.name ?? 'A tool call',
    kind: call.kind ?? 'other',
    detail: [toolContentText(call.content ?? []), paths, input].filter((part) => part !== '').join('\n'),
    options: params.options.map((option) => ({ id: option.optionId, name: option.name, kind: option.kind })),
  };
}

/** What a run that never waits answers: the narrowest allow there is. */
export function autoAnswer(options: PermissionOption[]): PermissionAnswer {
  const chosen = options.find((option) => option.kind === 'allow_once') ?? options.find((option) => option.kind === 'allow_always') ?? options[0];
  return chosen ? { optionId: chosen.optionId } : { cancelled: true };
}

/** Resolves with a cancelled answer once `signal` aborts, whatever the asker does. */
function unlessAborted(answer: Promise<PermissionAnswer>, signal: AbortSignal): Promise<PermissionAnswer> {
  if (signal.aborted) return Promise.resolve({ cancelled: true });
  return Promise.race([answer, new Promise<PermissionAnswer>((resolve) => signal.addEventListener('abort', () => resolve({ cancelled: true }), { once: true }))]);
}

/** The handler of session/request_permission for one run; `ended` aborts when the run is ending. */
export function permissionHandler(launch: Pick<AgentLaunch, 'requestPermission'>, emit: (event: AgentEvent) => void, ended: AbortSignal) {
  return async (params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> => {
    const request = permissionRequestOf(params);
    const summary = request.detail ? `${request.title}: ${oneLine(request.detail, 200)}` : request.title;
    emit({ type: 'system', text: `The agent asks permission (${request.kind}) for ${summary}`, raw: { type: 'permission.requested', request } });
    const both = AbortSignal.any([signal, ended]);
    let answer: PermissionAnswer;
    if (launch.requestPermission) {
      answer = await unlessAborted(launch.requestPermission(request, both).catch((): PermissionAnswer => ({ cancelled: true })), both);
    } else {
      answer = autoAnswer(params.options);
    }
    if ('cancelled' in answer) {
      emit({ type: 'system', text: `Permission request for ${request.title} cancelled`, raw: { type: 'permission.answered', answer } });
      return { outcome: { outcome: 'cancelled' } };
    }
    const option = request.options.find((candidate) => candidate.id === answer.optionId);
    const how = launch.requestPermission ? '' : ' (this instance approves every request)';
    emit({ type: 'system', text: `Permission for ${request.title}: ${option ? `${option.name} (${option.kind})` : answer.optionId}${how}`, raw: { type: 'permission.answered', answer, option } });
    return { outcome: { outcome: 'selected', optionId: answer.optionId } };
  };
}
