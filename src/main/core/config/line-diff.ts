// A unified diff of two texts by lines ("-" goes, "+" comes, " " stays), with a few lines of
// context around each change: enough for documents of a few hundred lines, read by a person.
const context = 2;

export function lineDiff(before: string, after: string): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  // Longest common subsequence, from the ends: lcs[i][j] is the length for a[i..], b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(`  ${a[i++]}`);
      j++;
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] > lcs[i + 1][j])) lines.push(`+ ${b[j++]}`);
    else lines.push(`- ${a[i++]}`);
  }
  // Unchanged lines far from any change are left out, said with "…".
  const near = (index: number) => lines.slice(Math.max(0, index - context), index + context + 1).some((line) => !line.startsWith('  '));
  const shown: string[] = [];
  lines.forEach((line, index) => {
    if (near(index)) shown.push(line);
    else if (shown.at(-1) !== '  …') shown.push('  …');
  });
  return shown.join('\n');
}
