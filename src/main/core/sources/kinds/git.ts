// The git source: a run per push to a branch, with the commits it brought. The cursor is one key,
// `tip`, the last commit handled; a push is the tip moving, and its event lists the commits from
// the old tip to the new (a force-push said so). A local repository's ref is watched (git-local.ts);
// a remote is asked for its tip every pollSeconds with `git ls-remote` and, when it moved, fetched
// into a bare mirror of Steward's own under <dataDir>/sources/<automationId>.git, where the
// commits are read. From refs alone pushes cannot be told apart: what came while Steward was off,
// or between two looks, is one event for the whole range.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GitTrigger } from '../../../../shared/contract';
import type { SourceContext, SourceEvent, SourceKind } from '../source-kind';
import { git } from './git-cli';
import { type PushPlace, commitsOf, hasCommit, pushEvent, recentCommitEvents } from './git-commits';
import { type LocalRepository, localTip, openLocal, refLookMs, refStamp } from './git-local';
import { type AccessTools, type RemoteUrl, accessFor, fetchBranch, fetchedRef, handledRef, isRemote, openMirror, parseRemote, remoteTip, removeStaleLocks } from './git-remote';
import { sleep } from '../sleep';

/** The longest a fetch may take: the first one (the whole history) and later ones. */
const firstFetchMs = 20 * 60_000;
const fetchMs = 5 * 60_000;
/** Beyond pollSeconds, what a look may take: for a remote ls-remote, a fetch and reading the commits; here reading them. */
const remoteLookMs = 8 * 60_000;
const localLookMs = 2 * 60_000;

const isSha = (value: string | undefined): value is string => value !== undefined && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(value);

/** One way of finding the branch's tip: a folder here, or a remote through Steward's mirror. */
interface Branch {
  place: PushPlace;
  /** Where its commits are read. */
  cwd: string;
  /** How it waits, in words, for the health. */
  how: string;
  /** The tip now; throws when there is no such branch. */
  tip(): Promise<string>;
  /** Until it is worth looking again (or the source stops). */
  wait(): Promise<void>;
  /** After a move was handled (the mirror keeps the commit the next range starts from). */
  handled(tip: string): Promise<void>;
}

const noBranch = (place: PushPlace) => new Error(`There is no branch "${place.branch}" in ${place.where}${place.branch === 'main' ? ' (is it called master?)' : ''}`);

async function checkBranchName(branch: string, signal: AbortSignal): Promise<void> {
  const { code } = await git(['check-ref-format', `refs/heads/${branch}`], { cwd: os.tmpdir(), signal, answers: [1] });
  if (code !== 0) throw new Error(`"${branch}" is not a branch name git accepts`);
}

async function localBranch(config: GitTrigger, ctx: Pick<SourceContext<GitTrigger>, 'signal' | 'now'>): Promise<Branch> {
  const repo: LocalRepository = await openLocal(config.repository, ctx.signal);
  const place = { where: repo.where, branch: config.branch };
  let seen = await refStamp(repo, config.branch);
  return {
    place,
    cwd: repo.folder,
    how: `watching ${place.where} (its ref looked at every second, checked every ${config.pollSeconds} s)`,
    async tip() {
      seen = await refStamp(repo, config.branch);
      const tip = await localTip(repo, config.branch, ctx.signal);
      if (tip === undefined) throw noBranch(place);
      return tip;
    },
    async wait() {
      const until = Date.now() + config.pollSeconds * 1000;
      while (!ctx.signal.aborted && Date.now() < until) {
        await sleep(Math.min(refLookMs, until - Date.now()), ctx.signal);
        if ((await refStamp(repo, config.branch)) !== seen) return;
      }
    },
    handled: async () => undefined,
  };
}

async function remoteBranch(config: GitTrigger, remote: RemoteUrl, mirror: string, tools: AccessTools & { signal: AbortSignal }): Promise<Branch> {
  await openMirror(mirror, tools.signal);
  removeStaleLocks(mirror);
  const place = { where: remote.where, branch: config.branch };
  return {
    place,
    cwd: mirror,
    how: `fetched every ${config.pollSeconds} s`,
    async tip() {
      const access = await accessFor(remote, config.credential, tools);
      const tip = await remoteTip(mirror, access, config.branch, tools.signal);
      if (tip === undefined) throw noBranch(place);
      if (await hasCommit(mirror, tip, tools.signal)) return tip;
      const first = !(await hasCommit(mirror, fetchedRef, tools.signal));
      await fetchBranch(mirror, access, config.branch, tools.signal, { timeoutMs: first ? firstFetchMs : fetchMs });
      // The branch may have moved again between the two: what was fetched is the tip.
      return (await git(['rev-parse', '--verify', `${fetchedRef}^{commit}`], { cwd: mirror, signal: tools.signal })).stdout.trim();
    },
    wait: () => sleep(config.pollSeconds * 1000, tools.signal),
    async handled(tip) {
      await git(['update-ref', handledRef, tip], { cwd: mirror, signal: tools.signal });
    },
  };
}

export const mirrorFolder = (dataDir: string, automationId: string) => path.join(dataDir, 'sources', `${automationId}.git`);

/** Hands over the branch's move to `tip` (or takes it as the baseline when there is no cursor yet). */
async function look(ctx: SourceContext<GitTrigger>, branch: Branch, tip: string, initial: boolean): Promise<void> {
  const before = ctx.cursor.get('tip');
  if (!isSha(before)) {
    ctx.emit([], { set: [['tip', tip]] }, { initial });
  } else if (before !== tip) {
    const event = await pushEvent(branch.cwd, branch.place, before, tip, ctx.signal);
    ctx.emit([event], { set: [['tip', tip]] }, { initial });
  } else {
    return;
  }
  try {
    await branch.handled(tip);
  } catch (error) {
    ctx.logger.warn({ err: (error as Error).message }, 'git source: could not mark the commit handled in its mirror');
  }
}

export const gitSource: SourceKind<GitTrigger> = {
  kind: 'git',

  async run(ctx) {
    const { config } = ctx;
    await checkBranchName(config.branch, ctx.signal);
    const branch = isRemote(config.repository)
      ? await remoteBranch(config, parseRemote(config.repository), mirrorFolder(ctx.dataDir, ctx.automationId), ctx)
      : await localBranch(config, ctx);
    let initial = true;
    while (!ctx.signal.aborted) {
      const tip = await branch.tip();
      if (ctx.signal.aborted) break;
      await look(ctx, branch, tip, initial);
      initial = false;
      ctx.alive(branch.how);
      await branch.wait();
    }
  },

  livenessMs: (config) => config.pollSeconds * 1000 + (isRemote(config.repository) ? remoteLookMs : localLookMs),

  async preview(config, tools): Promise<SourceEvent[]> {
    await checkBranchName(config.branch, tools.signal);
    const since = new Date(tools.now().getTime() - 24 * 3_600_000);
    if (!isRemote(config.repository)) {
      const branch = await localBranch(config, tools);
      return recentCommitEvents(branch.cwd, branch.place, await branch.tip(), since, tools.signal);
    }
    // A throwaway mirror holding the last day's commits alone.
    const remote = parseRemote(config.repository);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-git-preview-'));
    try {
      await openMirror(folder, tools.signal);
      const access = await accessFor(remote, config.credential, tools);
      const place = { where: remote.where, branch: config.branch };
      if ((await remoteTip(folder, access, config.branch, tools.signal)) === undefined) throw noBranch(place);
      try {
        await fetchBranch(folder, access, config.branch, tools.signal, { timeoutMs: fetchMs, shallowSince: since });
      } catch (error) {
        // Git refuses a shallow fetch that selects no commit (in words only the server's log
        // keeps): with the tip alone, a tip older than a day means nothing to preview.
        await fetchBranch(folder, access, config.branch, tools.signal, { timeoutMs: fetchMs, depth: 1 }).catch(() => Promise.reject(error as Error));
        const [tip] = await commitsOf(folder, [fetchedRef], 1, tools.signal);
        if (tip && tip.committed < since.toISOString()) return [];
        throw error;
      }
      return await recentCommitEvents(folder, place, fetchedRef, since, tools.signal);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  },
};
