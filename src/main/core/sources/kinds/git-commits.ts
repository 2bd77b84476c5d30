// A branch's move as an event: the commits it brought (those reachable from the new tip and not from
// the old one, which is also what a force-push brought), each with its author, date, message and
// changed files, read with one `git log -z` whose output cannot be misread whatever a file name
// or a message holds; and whether the move was a force-push (the old tip is not an ancestor).
import type { SourceEvent } from '../source-kind';
import { git } from './git-cli';

/** The most commits one event lists (the newest ones); `count` says how many there were. */
export const maxCommitsListed = 100;
/** The most changed paths listed for one commit; `filesNotListed` says how many more. */
export const maxFilesPerCommit = 100;
/** The most paths in the event's `files` (all its commits' changed paths). */
const maxFilesInEvent = 500;

export interface GitCommit {
  sha: string;
  parents: string[];
  author: string;
  email: string;
  /** When it was authored, ISO UTC. */
  date: string;
  /** When it was committed, ISO UTC. */
  committed: string;
  /** Subject and body. */
  message: string;
  files: string[];
  filesNotListed?: number;
}

// Each record starts with an empty field (a NUL of its own): a file name is never empty, so the
// start of the next commit is never taken for a file, whatever the names hold.
const format = '%x00%H%x00%P%x00%an%x00%ae%x00%aI%x00%cI%x00%B';
const fieldsPerCommit = 7;

const isoUtc = (text: string): string => {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
};

/** Parses `git log -z --format=<format> [--name-only]`. */
export function parseLog(output: string): GitCommit[] {
  const parts = output.split('\0');
  const commits: GitCommit[] = [];
  let at = 0;
  while (at < parts.length) {
    if (parts[at] !== '' || at + fieldsPerCommit >= parts.length) break;
    const [sha, parents, author, email, date, committed, message] = parts.slice(at + 1, at + 1 + fieldsPerCommit);
    at += 1 + fieldsPerCommit;
    const files: string[] = [];
    let first = true;
    while (at < parts.length && parts[at] !== '') {
      // The list of names starts on a line of its own.
      files.push(first ? parts[at].replace(/^\n/, '') : parts[at]);
      first = false;
      at += 1;
    }
    const listed = files.slice(0, maxFilesPerCommit);
    const commit: GitCommit = { sha, parents: parents === '' ? [] : parents.split(' '), author, email, date: isoUtc(date), committed: isoUtc(committed), message: message.trimEnd(), files: listed };
    if (files.length > listed.length) commit.filesNotListed = files.length - listed.length;
    commits.push(commit);
  }
  return commits;
}

/** The newest `max` commits of `revisions`, oldest first, with their changed files (a merge's against its first parent). */
export async function commitsOf(cwd: string, revisions: readonly string[], max: number, signal: AbortSignal, extra: readonly string[] = []): Promise<GitCommit[]> {
  const { stdout } = await git(['log', '-z', `--format=${format}`, '--name-only', '--diff-merges=first-parent', '--no-renames', `--max-count=${max}`, ...extra, '--end-of-options', ...revisions, '--'], { cwd, signal });
  return parseLog(stdout).reverse();
}

export async function hasCommit(cwd: string, sha: string, signal: AbortSignal): Promise<boolean> {
  const { code } = await git(['cat-file', '-e', `${sha}^{commit}`], { cwd, signal, answers: [1, 128] });
  return code === 0;
}

const isAncestor = async (cwd: string, older: string, newer: string, signal: AbortSignal): Promise<boolean> =>
  (await git(['merge-base', '--is-ancestor', older, newer], { cwd, signal, answers: [1] })).code === 0;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const short = (sha: string) => sha.slice(0, 7);

export interface PushPlace {
  /** The repository in words: ~/src/app, https://example.com/app.git (no password). */
  where: string;
  branch: string;
}

/** The fields every git event has, from its commits. */
function commitFields(commits: readonly GitCommit[]): Record<string, unknown> {
  const authors = [...new Set(commits.map((commit) => `${commit.author} <${commit.email}>`))];
  const files = [...new Set(commits.flatMap((commit) => commit.files))];
  return {
    commits,
    authors,
    author: authors.join(', '),
    messages: commits.map((commit) => commit.message.split('\n')[0]),
    message: commits.map((commit) => commit.message).join('\n\n'),
    files: files.slice(0, maxFilesInEvent),
  };
}

/** The event for the branch moving from `before` to `after` (read in the repository at `cwd`). */
export async function pushEvent(cwd: string, place: PushPlace, before: string, after: string, signal: AbortSignal): Promise<SourceEvent> {
  const range = `${before}..${after}`;
  const [tip] = await commitsOf(cwd, [after], 1, signal, ['--no-walk']);
  const at = tip?.committed ?? new Date().toISOString();
  const base = { repository: place.where, branch: place.branch, before, after, range };
  if (!(await hasCommit(cwd, before, signal))) {
    // The last commit handled is gone (a force-push and a gc since, or a mirror made afresh): what
    // came since cannot be told, so the event says so and lists the new tip alone.
    const commits = tip ? [tip] : [];
    return {
      key: range,
      at,
      summary: `${place.branch} of ${place.where} moved to ${short(after)} from ${short(before)}, which is no longer in the repository`,
      fields: { ...base, forced: true, count: commits.length, ...commitFields(commits), beforeUnknown: true },
    };
  }
  const forced = !(await isAncestor(cwd, before, after, signal));
  const count = Number((await git(['rev-list', '--count', '--end-of-options', range, '--'], { cwd, signal })).stdout.trim());
  const commits = await commitsOf(cwd, [range], maxCommitsListed, signal);
  const listed = count > commits.length ? ` (the newest ${commits.length} listed)` : '';
  const summary = forced
    ? `force-pushed ${place.branch} of ${place.where}: ${count === 0 ? `back to ${short(after)}, no new commits` : `${plural(count, 'new commit')}${listed}`}`
    : `${plural(count, 'commit')} pushed to ${place.branch} of ${place.where}${listed}`;
  return { key: range, at, summary, fields: { ...base, forced, count, ...commitFields(commits) } };
}

/** The branch's commits since `since` (the form's preview), newest first, one event each. */
export async function recentCommitEvents(cwd: string, place: PushPlace, revision: string, since: Date, signal: AbortSignal): Promise<SourceEvent[]> {
  const commits = await commitsOf(cwd, [revision], maxCommitsListed, signal, [`--since=${since.toISOString()}`]);
  return commits.reverse().map((commit) => ({
    key: commit.sha,
    at: commit.committed,
    summary: `${short(commit.sha)} on ${place.branch} of ${place.where} by ${commit.author}: ${commit.message.split('\n')[0].slice(0, 200)}`,
    fields: { repository: place.where, branch: place.branch, after: commit.sha, forced: false, count: 1, ...commitFields([commit]) },
  }));
}
