// Text from a file or a remote Steward, printed: one line stays one line, and no escape sequence
// reaches the terminal; a message made of lines keeps its lines and tabs.
import { describe, expect, it } from 'vitest';
import { printable } from '../../src/shared/printable';

describe('printable', () => {
  it('writes control characters, line breaks included, as escapes', () => {
    expect(printable('Innocent\nbroken.yaml:1:1: all good, applied\u001b[2K\u001b[1A\r\u2028\u0085\u0000\t')).toBe(
      'Innocent\\nbroken.yaml:1:1: all good, applied\\u001b[2K\\u001b[1A\\r\\u2028\\u0085\\u0000\\t',
    );
  });

  it('keeps the lines and tabs of a text made of lines, and nothing else', () => {
    expect(printable('first\n\tsecond\u001b]0;title\u0007\r', true)).toBe('first\n\tsecond\\u001b]0;title\\u0007\\r');
    expect(printable('plain text: é, ü, 日本', true)).toBe('plain text: é, ü, 日本');
  });
});
