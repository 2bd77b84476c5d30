// Why a cancelled run was cancelled, beside its status badge ("– cancelled · denied by you"): the
// status stays the API's `cancelled`, the words say which kind.
export function CancelledWhy({ why }: { why: string | null | undefined }) {
  return why ? <span className="hint cancelled-why"> · {why}</span> : null;
}
