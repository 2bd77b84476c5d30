// Whether a Steward answers on a base URL: asked before a command opens a data folder itself, by
// `keys`, `login-link`, `mcp` and `remotes`. Apart from open-steward.ts, whose HTTP client the
// commands that only ask this need not load.

/** A daemon busy with its own work may take a moment; one that is not there refuses at once. */
const probeTimeoutMs = 5_000;

export async function daemonAnswers(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(probeTimeoutMs) });
    return response.ok;
  } catch {
    return false;
  }
}
