// Configuration files as YAML: documents written one way (keys in order, text as literal blocks),
// and read back with where each value stands, so that a problem names its file, line and column.
import { Document, LineCounter, type Node, isMap, isNode, isPair, isScalar, parseAllDocuments } from 'yaml';
import type { ConfigFile } from '../../../shared/contract';

/** One document as text: a literal block for text of several lines, no folding of long lines. */
export function documentText(document: Record<string, unknown>): string {
  const text = new Document(document);
  // A signing secret is never written: say what a Steward where the webhook is new needs instead.
  const signature = text.get('signature', true);
  if (isMap(signature) && !signature.has('secretFrom')) signature.commentBefore = ' The signing secret is never written here. Where this webhook is new, add secretFrom: <a stored secret holding it>.';
  return text.toString({ lineWidth: 0, blockQuote: 'literal', indentSeq: true });
}

/** Documents as one file, separated by `---`. */
export const joinedText = (texts: string[]): string => texts.map((text, index) => (index === 0 ? text : `---\n${text}`)).join('');

/** A value read from a file, with a way to say where any part of it stands. */
export interface ReadDocument {
  file: string;
  value: unknown;
  /** "file:line:column" of the value at `path` (or of the nearest part of it that exists). */
  where(path: readonly PropertyKey[], key?: string): string;
  /** Where the document's mapping stands in the text (its `---` and comments before it outside): what a write-back replaces. */
  range: [number, number];
}

export interface ReadProblem {
  where: string;
  message: string;
}

/** Aliases may repeat a value this often in one document, no more (a "billion laughs" file is refused). */
const maxAliasCount = 100;

export function readFile(file: ConfigFile): { documents: ReadDocument[]; problems: ReadProblem[] } {
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(file.text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `${file.path}:${line}:${col}`;
  };
  const documents: ReadDocument[] = [];
  const problems: ReadProblem[] = [];
  // A file with no documents at all (empty, or only comments) is a list of none.
  if (!Array.isArray(parsed)) return { documents, problems };
  for (const document of parsed) {
    const errors = [...document.errors, ...document.warnings.filter((warning) => warning.code === 'BAD_ALIAS')];
    if (errors.length > 0) {
      for (const error of errors) problems.push({ where: at(error.pos[0]), message: firstLine(error.message) });
      continue;
    }
    if (document.contents === null) continue;
    let value: unknown;
    try {
      value = document.toJS({ maxAliasCount });
    } catch (error) {
      problems.push({ where: at(document.range[0]), message: firstLine((error as Error).message) });
      continue;
    }
    const where = (path: readonly PropertyKey[], key?: string): string => {
      let node: unknown = document.contents;
      let found = node as Node;
      for (const part of path) {
        if (!isMap(node) && !(node && typeof node === 'object' && 'items' in node)) break;
        const collection = node as { items: unknown[] };
        const item = isMap(node)
          ? (collection.items.find((pair) => isPair(pair) && isScalar(pair.key) && String(pair.key.value) === String(part)) as { value: unknown } | undefined)?.value
          : collection.items[Number(part)];
        if (!isNode(item)) break;
        node = item;
        found = item;
      }
      if (key !== undefined && isMap(found)) {
        const pair = found.items.find((each) => isScalar(each.key) && String(each.key.value) === key);
        if (pair && isNode(pair.key)) found = pair.key;
      }
      return at(found?.range?.[0] ?? document.range[0]);
    };
    const contents = document.contents as Node;
    documents.push({ file: file.path, value, where, range: [contents.range?.[0] ?? document.range[0], contents.range?.[2] ?? document.range[2]] });
  }
  return { documents, problems };
}

const firstLine = (message: string): string => message.split('\n')[0];
