// A pending request's single-use decision links, for a phone: "Copy link" puts both (allow and
// deny) on the clipboard, "Open on phone" shows each as a QR code with the link beside it, and says
// whether a phone can reach it (through the tunnel, or only on this computer). The API gives the
// links to an admin's session only; without them (a key of lower scope) nothing is shown.
import { useEffect, useId, useState } from 'react';
import type { Approval } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const isLoopback = (link: string) => {
  const { hostname } = new URL(link);
  return loopbackNames.has(hostname) || hostname.endsWith('.localhost');
};

function QrCode({ label, link }: { label: string; link: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    // Loaded when first shown: the QR library stays out of the views' chunks.
    void import('./qr').then(({ qrDataUrl }) => qrDataUrl(link)).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [link]);
  return (
    <figure className="decision-qr">
      {src ? <img src={src} alt={`QR code of the ${label.toLowerCase()} link`} width={176} height={176} /> : <div className="hint">Drawing…</div>}
      <figcaption>
        <strong>{label}</strong>
        <code>{link}</code>
      </figcaption>
    </figure>
  );
}

/** Whether a phone reaches the links, in plain words. */
function Reach({ link }: { link: string }) {
  const { tunnel } = useApp();
  const origin = new URL(link).origin;
  if (isLoopback(link)) {
    return (
      <p className="warning">
        These links point at this computer ({origin}): a phone cannot open them. {tunnel?.state === 'up' ? '' : 'The tunnel is down. '}
        Start the tunnel in <a href="#/settings">Settings</a>, or set where links point (Settings, Notifications), and the links change to an address a phone can reach.
      </p>
    );
  }
  const throughTunnel = tunnel?.state === 'up' && tunnel.publicUrl !== null && link.startsWith(tunnel.publicUrl);
  return (
    <p className="hint">
      {throughTunnel ? `Through the tunnel (${origin}): a phone opens them from anywhere while the tunnel is up.` : `They work only where the phone can reach this Steward at ${origin}.`} Each link decides once; no login is needed, so share them only with whoever may decide.
    </p>
  );
}

export function DecisionLinks({ approval }: { approval: Approval }) {
  const { toast, loadTunnel } = useApp();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const links = approval.links;
  useEffect(() => {
    if (open) void loadTunnel().catch(() => undefined);
  }, [open, loadTunnel]);
  if (!links) return null;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(`Allow: ${links.allow}\nDeny: ${links.deny}`);
      toast('success', 'Decision links copied (allow and deny). Each works once.');
    } catch {
      toast('failure', 'The clipboard refused the links: open "Open on phone" and copy them from there.');
    }
  };

  return (
    <>
      <div className="row decision-links">
        <button type="button" onClick={() => void copy()}>Copy link</button>
        <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>Open on phone</button>
      </div>
      {open && (
        <div id={panelId} role="region" aria-label="Open on phone" className="decision-qrs">
          <QrCode label="Allow" link={links.allow} />
          <QrCode label="Deny" link={links.deny} />
          <Reach link={links.allow} />
        </div>
      )}
    </>
  );
}
