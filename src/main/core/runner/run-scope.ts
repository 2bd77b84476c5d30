// What a run holds while it runs (its key to Steward's MCP server, its sandbox, its timeout),
// released in reverse order of taking, once, however the run ends: its agent exits, it is
// cancelled while its sandbox opens, its agent cannot start, or Steward stops.
export interface RunScope {
  /** Takes on something to release; taken after the scope closed, it is released at once. */
  hold(release: () => unknown): void;
  /** Releases everything held, last taken first; a release that fails is reported and the rest go on. */
  close(): Promise<void>;
}

export function createRunScope(onError: (error: unknown) => void): RunScope {
  const held: Array<() => unknown> = [];
  let closing: Promise<void> | undefined;

  async function release(each: () => unknown): Promise<void> {
    try {
      await each();
    } catch (error) {
      onError(error);
    }
  }

  return {
    hold(each) {
      if (closing) void release(each);
      else held.push(each);
    },
    close() {
      closing ??= (async () => {
        while (held.length > 0) await release(held.pop()!);
      })();
      return closing;
    },
  };
}
