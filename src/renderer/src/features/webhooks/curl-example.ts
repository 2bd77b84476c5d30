// The curl example on a webhook's card: a request its trigger URL accepts as it is. For a signed
// webhook the example signs its body for the scheme with openssl, from the secret in
// $WEBHOOK_SECRET (Steward never shows the secret again), so copying it gives 202, not 401. For a
// sender preset it sends what that sender would (GitHub's event and delivery headers, a body shaped
// like Stripe's or Slack's event), so the preset's template renders with every field filled; ids
// carry the time, so a second try is a new event, not a duplicate.
import type { Sender, SignatureScheme } from '../../../../shared/contract';

/** How each sender's request looks: its body (a shell word, `$STAMP` the time) and its own headers. */
const senders: Record<Sender, { body: string; headers: string[] }> = {
  generic: { body: `'{"event": "example"}'`, headers: [] },
  github: {
    // An issue opened: the preset's template names the event's action, which a push has not.
    body: `'{"action": "opened", "issue": {"number": 1, "title": "An example issue"}, "repository": {"full_name": "octo-org/example"}, "sender": {"login": "octocat"}}'`,
    headers: ['X-GitHub-Event: issues', 'X-GitHub-Delivery: example-$STAMP'],
  },
  stripe: {
    body: `'{"id": "evt_example_'"$STAMP"'", "object": "event", "type": "payment_intent.succeeded", "data": {"object": {"id": "pi_example", "amount": 1000, "currency": "usd"}}}'`,
    headers: [],
  },
  slack: {
    body: `'{"type": "event_callback", "event_id": "Ev_example_'"$STAMP"'", "event": {"type": "message", "user": "U0EXAMPLE", "channel": "C0EXAMPLE", "text": "Hello from the example"}}'`,
    headers: [],
  },
};

const needsStamp = (sender: Sender) => sender !== 'generic';
const hmacHex = (data: string) => `$(printf '%s' ${data} | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" | sed 's/^.*= //')`;

/** Shell lines that compute the signature headers; each header as curl's -H takes it. */
const signing: Record<SignatureScheme, { lines: string[]; headers: string[] }> = {
  github: {
    lines: [`SIGNATURE=${hmacHex('"$BODY"')}`],
    headers: ['X-Hub-Signature-256: sha256=$SIGNATURE'],
  },
  stripe: {
    lines: ['TIMESTAMP=$(date +%s)', `SIGNATURE=${hmacHex('"$TIMESTAMP.$BODY"')}`],
    headers: ['Stripe-Signature: t=$TIMESTAMP,v1=$SIGNATURE'],
  },
  slack: {
    lines: ['TIMESTAMP=$(date +%s)', `SIGNATURE=${hmacHex('"v0:$TIMESTAMP:$BODY"')}`],
    headers: ['X-Slack-Request-Timestamp: $TIMESTAMP', 'X-Slack-Signature: v0=$SIGNATURE'],
  },
  standard: {
    // A whsec_ secret is the base64 of the key; any other is the key as it is.
    lines: [
      'MESSAGE_ID=msg_$(date +%s)',
      'TIMESTAMP=$(date +%s)',
      `KEY=$(case "$WEBHOOK_SECRET" in whsec_*) printf '%s' "\${WEBHOOK_SECRET#whsec_}" | openssl base64 -d -A ;; *) printf '%s' "$WEBHOOK_SECRET" ;; esac | od -An -v -tx1 | tr -d ' \\n')`,
      `SIGNATURE=$(printf '%s' "$MESSAGE_ID.$TIMESTAMP.$BODY" | openssl dgst -sha256 -mac HMAC -macopt hexkey:"$KEY" -binary | openssl base64 -A)`,
    ],
    headers: ['webhook-id: $MESSAGE_ID', 'webhook-timestamp: $TIMESTAMP', 'webhook-signature: v1,$SIGNATURE'],
  },
};

/** A POSIX shell example that triggers the webhook at `url` as `sender` would, signed for `scheme` when it has one. */
export function curlExample(url: string, scheme: SignatureScheme | null, sender: Sender = 'generic'): string {
  const { body, headers: own } = senders[sender];
  const signed = scheme === null ? { lines: [], headers: [] } : signing[scheme];
  const headers = ['Content-Type: application/json', ...own, ...signed.headers];
  return [
    ...(scheme === null ? [] : [
      '# WEBHOOK_SECRET: the signing secret you saved for this webhook (Steward does not show it again)',
      `: "\${WEBHOOK_SECRET:?set WEBHOOK_SECRET to this webhook's signing secret}"`,
    ]),
    ...(needsStamp(sender) ? ['STAMP=$(date +%s)'] : []),
    `BODY=${body}`,
    ...signed.lines,
    `curl -X POST '${url}' \\`,
    ...headers.map((header) => `  -H "${header}" \\`),
    '  --data-binary "$BODY"',
  ].join('\n');
}
