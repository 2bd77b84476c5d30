// A decision link as a QR code: an SVG drawn by `qrcode`, as a data: URL (the page's CSP allows
// data: images). SVG, not the canvas PNG, so the same text gives the same image in the browser and
// in Node (where the e2e test checks the image shown is the link's code).
import QRCode from 'qrcode';

export const qrOptions = { type: 'svg', errorCorrectionLevel: 'M', margin: 2 } as const;

export async function qrDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, qrOptions);
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
