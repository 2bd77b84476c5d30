// A fetched mail message as an event: its sender, recipients, subject, date, text (HTML turned to
// text by mailparser) and its attachments named with their sizes, parsed by mailparser rather
// than by us. A message's source is read up to a cap, so one huge mail cannot take the memory;
// what was cut is said in the fields.
import { type AddressObject, simpleParser } from 'mailparser';
import type { FetchMessageObject } from 'imapflow';
import type { SourceEvent } from '../source-kind';

/** The most of a message's source that is read (and parsed). */
export const maxSourceBytes = 10 * 1024 * 1024;
/** The most of a message's text an event holds (the frame bounds the whole event at 64 KiB anyway). */
export const maxTextChars = 48_000;

const oneLine = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** "Ann Example <ann@example.org>, bob@example.org": as people write them, without quotes. */
function envelopeAddresses(list: readonly { name?: string; address?: string }[] | undefined): string {
  return (list ?? []).map((entry) => (entry.name ? `${entry.name} <${entry.address ?? ''}>` : (entry.address ?? ''))).join(', ');
}

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  if (value === undefined) return '';
  // A group's members are listed in its `group`.
  const entries = (Array.isArray(value) ? value : [value]).flatMap((object) => object.value.flatMap((entry) => entry.group ?? [entry]));
  return envelopeAddresses(entries);
}

const isoOf = (value: Date | string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};

const parserOptions = { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true, maxHtmlLengthToParse: 2 * 1024 * 1024 };

/**
 * The text of an HTML body. mailparser turns HTML into text only for a message that is HTML alone
 * or HTML beside a text part, not for an HTML part among attachments (multipart/mixed): such a
 * part is given to it again as a message of its own, so its own conversion (html-to-text) does it.
 */
async function htmlAsText(html: string): Promise<string> {
  const alone = await simpleParser(`Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${html}`, parserOptions);
  return alone.text ?? '';
}

/** "Mail from Ann <ann@example.org>: "Invoice 42"". */
export function mailSummary(from: string, subject: string): string {
  return `Mail from ${oneLine(from, 200) || 'an unknown sender'}: "${oneLine(subject, 200)}"`;
}

/** The event for a message fetched with uid, envelope, internalDate, size and source (up to maxSourceBytes). */
export async function mailEvent(message: FetchMessageObject, uidValidity: string, mailbox: string, now: Date): Promise<SourceEvent> {
  try {
    return await parsedEvent(message, uidValidity, mailbox, now);
  } catch (error) {
    // A message its parser refuses (a thousand parts, a broken structure) is still an event, told
    // from its envelope: one stranger's mail must not make the mailbox deaf to every mail after it.
    const event = envelopeEvent(message, uidValidity, now);
    const why = error instanceof Error ? error.message : String(error);
    return { ...event, fields: { ...event.fields, text: '', attachments: [], mailbox, uid: message.uid, size: message.size ?? 0, unreadable: `Steward could not read this message's body: ${why}` } };
  }
}

async function parsedEvent(message: FetchMessageObject, uidValidity: string, mailbox: string, now: Date): Promise<SourceEvent> {
  const size = message.size ?? message.source?.length ?? 0;
  const cut = size > maxSourceBytes;
  const parsed = await simpleParser(message.source ?? Buffer.alloc(0), parserOptions);
  const from = addressText(parsed.from) || envelopeAddresses(message.envelope?.from);
  const subject = parsed.subject ?? message.envelope?.subject ?? '';
  let text = parsed.text || (parsed.html ? await htmlAsText(parsed.html) : '');
  if (text.length > maxTextChars) text = `${text.slice(0, maxTextChars)}… [cut: ${text.length - maxTextChars} more characters]`;
  if (cut) text += `\n… [the message is ${megabytes(size)}: only its first ${megabytes(maxSourceBytes)} were read]`;
  const fields: Record<string, unknown> = {
    from,
    to: addressText(parsed.to) || envelopeAddresses(message.envelope?.to),
    cc: addressText(parsed.cc) || envelopeAddresses(message.envelope?.cc),
    subject,
    date: isoOf(parsed.date) ?? isoOf(message.envelope?.date) ?? null,
    messageId: parsed.messageId ?? message.envelope?.messageId ?? null,
    text,
    attachments: parsed.attachments.map((attachment) => ({ filename: attachment.filename ?? null, contentType: attachment.contentType, size: attachment.size })),
    mailbox,
    uid: message.uid,
    size,
  };
  if (cut) fields.truncated = `The message is ${megabytes(size)}; only its first ${megabytes(maxSourceBytes)} were read, so its text and attachments may be incomplete.`;
  return {
    key: `${uidValidity}:${message.uid}`,
    // The server's arrival time: a sender can write any Date header.
    at: isoOf(message.internalDate) ?? isoOf(parsed.date) ?? now.toISOString(),
    summary: mailSummary(from, subject),
    fields,
  };
}

/** A preview's event from the envelope alone (no body is fetched for a preview). */
export function envelopeEvent(message: FetchMessageObject, uidValidity: string, now: Date): SourceEvent {
  const from = envelopeAddresses(message.envelope?.from);
  const subject = message.envelope?.subject ?? '';
  return {
    key: `${uidValidity}:${message.uid}`,
    at: isoOf(message.internalDate) ?? isoOf(message.envelope?.date) ?? now.toISOString(),
    summary: mailSummary(from, subject),
    fields: { from, to: envelopeAddresses(message.envelope?.to), subject, date: isoOf(message.envelope?.date) ?? null, messageId: message.envelope?.messageId ?? null },
  };
}
