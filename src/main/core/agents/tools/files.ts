// read_file, write_file and list_files, confined to the workspace: a path that leads out of it,
// directly or through a symbolic link, is refused. For a sandboxed run a process inside its sandbox
// does the reading and writing (files-inside.ts), so the sandbox's rules hold for the tools too;
// otherwise Steward does, opening each file without following a link or blocking (files-host.ts).
// A write to a startup file the sandbox protects (.git/hooks, .mcp.json, …) is refused with the remedy.
import fs from 'node:fs/promises';
import path from 'node:path';
import { protectedAt } from '../../sandbox/policy';
import { listInside, readInside, writeInside } from './files-inside';
import { isInside, listOnHost, readOnHost, writeOnHost } from './files-host';
import { type Tool, type ToolContext, ToolError, capText, numberArg, stringArg } from './tool';

const maxReadChars = 200_000;
const maxReadBytes = 1024 * 1024;
const maxWriteBytes = 5 * 1024 * 1024;
const maxEntries = 1_000;

/** The real path of `target` if it lies inside the workspace; the nearest existing ancestor decides for new files. */
export async function insideWorkspace(workspaceDir: string, target: string): Promise<string> {
  const root = await fs.realpath(workspaceDir);
  const wanted = path.resolve(root, target);
  let existing = wanted;
  let rest = '';
  for (;;) {
    try {
      existing = await fs.realpath(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) break;
      rest = path.join(path.basename(existing), rest);
      existing = parent;
    }
  }
  const resolved = path.join(existing, rest);
  if (!isInside(root, resolved)) throw new ToolError(`${target} is outside the workspace; paths must stay inside ${workspaceDir}.`);
  return resolved;
}

/** The workspace's real path, and the file `target` names in it. */
async function located(context: ToolContext, target: string): Promise<{ root: string; file: string }> {
  return { root: await fs.realpath(context.workspaceDir), file: await insideWorkspace(context.workspaceDir, target) };
}

const pathParameter = { type: 'string', description: 'A path relative to the workspace' };

export const fileTools: Tool[] = [
  {
    name: 'read_file',
    description: 'Read a text file in the workspace.',
    parameters: { type: 'object', properties: { path: pathParameter }, required: ['path'], additionalProperties: false },
    async run(args, context) {
      const shown = stringArg(args, 'path');
      const { root, file } = await located(context, shown);
      const { sandbox } = context;
      const { bytes, more } = sandbox ? await readInside({ ...context, sandbox }, file, shown, maxReadBytes) : await readOnHost(root, file, shown, maxReadBytes);
      const text = capText(bytes.toString('utf8'), maxReadChars);
      return more ? `${text}\n… [only the first ${maxReadBytes / 1024 / 1024} MiB of ${shown} was read]` : text;
    },
  },
  {
    name: 'write_file',
    acts: true,
    description: 'Create or overwrite a text file in the workspace; missing folders are created.',
    parameters: {
      type: 'object',
      properties: { path: pathParameter, content: { type: 'string', description: 'The whole new content' } },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    async run(args, context) {
      const shown = stringArg(args, 'path');
      const content = stringArg(args, 'content');
      if (Buffer.byteLength(content) > maxWriteBytes) throw new ToolError('The content is larger than 5 MiB.');
      const { root, file } = await located(context, shown);
      const { sandbox } = context;
      const guarded = sandbox && protectedAt(sandbox.policy, file);
      if (guarded) throw new ToolError(`${shown} is a file that starts programs later (${path.relative(guarded.root, guarded.path)}): the sandbox keeps runs from writing it. Add ${guarded.path} to the instance's sandbox writeAllow to allow it.`);
      if (sandbox) await writeInside({ ...context, sandbox }, file, shown, content);
      else await writeOnHost(root, file, shown, content);
      return `Wrote ${Buffer.byteLength(content)} bytes to ${path.relative(root, file)}.`;
    },
  },
  {
    name: 'list_files',
    description: 'List a folder in the workspace (folders end with /).',
    parameters: {
      type: 'object',
      properties: { path: { ...pathParameter, default: '.' }, limit: { type: 'integer', minimum: 1, maximum: maxEntries, default: 200 } },
      additionalProperties: false,
    },
    async run(args, context) {
      const shown = stringArg(args, 'path', '.');
      const { root, file: folder } = await located(context, shown);
      const limit = numberArg(args, 'limit', 200, 1, maxEntries);
      const { sandbox } = context;
      const entries = (sandbox ? await listInside({ ...context, sandbox }, folder, shown) : await listOnHost(root, folder, shown)).sort();
      const listed = entries.slice(0, limit);
      if (entries.length > limit) listed.push(`… and ${entries.length - limit} more`);
      return listed.length > 0 ? listed.join('\n') : '(empty)';
    },
  },
];
