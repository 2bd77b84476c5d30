// Remote Stewards: the ones this Steward follows with the state of each connection, a connection
// tested before it is added, adding and removing one. A remote's live change reloads it; a remote
// gone (removed here or in another window) takes its instances from the list.
import type { Remote, RemoteCheck } from '../../../../shared/contract';
import { ApiError } from '../../lib/api';
import type { Slice } from '../../store';

export interface RemotesSlice {
  /** Undefined until first loaded. */
  remotes: Remote[] | undefined;
  loadRemotes: () => Promise<void>;
  /** Whether a remote at `url` accepts the key in the secret `apiKeyRef`, before it is added. */
  /** A test before adding, with a stored secret or a pasted key (which the test does not store). */
  checkRemote: (url: string, key: { apiKeyRef: string } | { apiKey: string }) => Promise<RemoteCheck>;
  addRemote: (body: { name: string; url: string; apiKeyRef: string; apiKey?: string }) => Promise<Remote>;
  deleteRemote: (id: string) => Promise<void>;
  /** From a live event: the remote as it is now, or gone with its instances. */
  remoteChanged: (id: string) => Promise<void>;
}

const byName = (a: Remote, b: Remote) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

export const remotesSlice: Slice<RemotesSlice> = (set, get) => {
  const put = (remote: Remote) => set({ remotes: [...(get().remotes ?? []).filter((each) => each.id !== remote.id), remote].sort(byName) });
  const forget = (id: string) =>
    set({ remotes: get().remotes?.filter((each) => each.id !== id), instances: get().instances.filter((instance) => instance.location !== id) });
  return {
    remotes: undefined,
    async loadRemotes() {
      set({ remotes: (await get().client.call('remotes.list')).remotes.sort(byName) });
    },
    async checkRemote(url, key) {
      return (await get().client.call('remotes.check', { body: { url, ...key } })).check;
    },
    async addRemote(body) {
      const { remote } = await get().client.call('remotes.create', { body });
      put(remote);
      // A pasted key was stored with it: the secrets list shows it.
      if (body.apiKey !== undefined) void get().loadSecrets().catch(() => undefined);
      return remote;
    },
    async deleteRemote(id) {
      await get().client.call('remotes.delete', { params: { id } });
      forget(id);
    },
    async remoteChanged(id) {
      let remote: Remote;
      try {
        remote = (await get().client.call('remotes.get', { params: { id } })).remote;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found') return forget(id);
        throw error;
      }
      const known = get().remotes;
      if (known === undefined) return;
      const before = known.find((each) => each.id === id);
      put(remote);
      // Its instances arrive with their own events; one deleted over there arrives with none.
      if (before !== undefined && before.instanceCount > remote.instanceCount) await get().loadInstances();
    },
  };
};
