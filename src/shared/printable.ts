// Text from elsewhere (a file's name, a document's name, a remote Steward's answer) put into a
// message or printed on a terminal: its control characters written as escapes (\n, \u001b), so it
// can neither start a line that looks like ours, nor move a terminal's cursor, nor reorder what is shown (bidi marks). `keepLines` leaves
// the line breaks and tabs of a text made of lines (a message, a YAML file).
const control = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const escaped = (char: string): string => {
  const json = JSON.stringify(char).slice(1, -1);
  return json.length > 1 ? json : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
};

export const printable = (text: string, keepLines = false): string => text.replace(control, (char) => (keepLines && (char === '\n' || char === '\t') ? char : escaped(char)));
