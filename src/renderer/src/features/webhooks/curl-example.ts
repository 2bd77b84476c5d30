// The curl example on a webhook's card: a request its trigger URL accepts as it is. For a signed
// webhook the example signs its body for the scheme with openssl, from the secret in
// $WEBHOOK_SECRET (Steward never shows the secret again), so copying it gives 202, not 401.
import type { SignatureScheme } from '../../../../shared/contract';

const body = '{"event": "example"}';
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

/** A POSIX shell example that triggers the webhook at `url`, signed for `scheme` when it has one. */
export function curlExample(url: string, scheme: SignatureScheme | null): string {
  if (scheme === null) return `curl -X POST '${url}' \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
  const { lines, headers } = signing[scheme];
  return [
    '# WEBHOOK_SECRET: the signing secret you saved for this webhook (Steward does not show it again)',
    `: "\${WEBHOOK_SECRET:?set WEBHOOK_SECRET to this webhook's signing secret}"`,
    `BODY='${body}'`,
    ...lines,
    `curl -X POST '${url}' \\`,
    "  -H 'Content-Type: application/json' \\",
    ...headers.map((header) => `  -H "${header}" \\`),
    '  --data-binary "$BODY"',
  ].join('\n');
}
