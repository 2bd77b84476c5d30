// read_file, write_file and list_files, confined to the workspace: a path that leads out of it,
// directly or through a symbolic link, is refused. In a sandboxed instance, so is a write to a
// startup file its sandbox protects (.git/hooks, .mcp.json, …): Steward writes it, not the sandbox.
import fs from 'node:fs/promises';
import path from 'node:path';
import { protectedAt } from '../../sandbox/policy';
import { type Tool, ToolError, capText, numberArg, stringArg } from './tool';

const maxReadChars = 200_000;
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
  const relative = path.relative(root, resolved);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new ToolError(`${target} is outside the workspace; paths must stay inside ${workspaceDir}.`);
  }
  return resolved;
}

const pathParameter = { type: 'string', description: 'A path relative to the workspace' };

export const fileTools: Tool[] = [
  {
    name: 'read_file',
    description: 'Read a text file in the workspace.',
    parameters: { type: 'object', properties: { path: pathParameter }, required: ['path'], additionalProperties: false },
    async run(args, { workspaceDir }) {
      const file = await insideWorkspace(workspaceDir, stringArg(args, 'path'));
      return capText(await fs.readFile(file, 'utf8'), maxReadChars);
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
    async run(args, { workspaceDir, sandbox }) {
      const file = await insideWorkspace(workspaceDir, stringArg(args, 'path'));
      const guarded = sandbox && protectedAt(sandbox.policy, file);
      if (guarded) throw new ToolError(`${stringArg(args, 'path')} is a file that starts programs later (${path.relative(guarded.root, guarded.path)}): the sandbox keeps runs from writing it. Add ${guarded.path} to the instance's sandbox writeAllow to allow it.`);
      const content = stringArg(args, 'content');
      if (Buffer.byteLength(content) > maxWriteBytes) throw new ToolError('The content is larger than 5 MiB.');
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, content);
      return `Wrote ${Buffer.byteLength(content)} bytes to ${path.relative(await fs.realpath(workspaceDir), file)}.`;
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
    async run(args, { workspaceDir }) {
      const folder = await insideWorkspace(workspaceDir, stringArg(args, 'path', '.'));
      const limit = numberArg(args, 'limit', 200, 1, maxEntries);
      const entries = (await fs.readdir(folder, { withFileTypes: true })).map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
      const shown = entries.slice(0, limit);
      if (entries.length > limit) shown.push(`… and ${entries.length - limit} more`);
      return shown.length > 0 ? shown.join('\n') : '(empty)';
    },
  },
];
