// The avatar an instance gets when none is given: its initials on a colour taken from its name.
import { createHash } from 'node:crypto';

const palette = ['#4f46e5', '#0891b2', '#059669', '#ca8a04', '#dc2626', '#db2777', '#7c3aed', '#475569'];

export function initials(name: string): string {
  const words = name.trim().split(/[\s._-]+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[1]] : [name.trim()];
  return letters
    .map((word) => Array.from(word ?? '')[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase() || '?';
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function generatedAvatarUrl(name: string): string {
  const colour = palette[createHash('sha256').update(name).digest()[0] % palette.length];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" rx="14" fill="${colour}"/>` +
    `<text x="32" y="41" font-family="system-ui,sans-serif" font-size="26" font-weight="600" fill="#fff" text-anchor="middle">${escapeXml(initials(name))}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
