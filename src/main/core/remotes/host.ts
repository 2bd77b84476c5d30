// The host name of a remote Steward's URL, as its instances and lists show it: needed to list
// remotes, without loading the client that calls them.

export function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '');
}
