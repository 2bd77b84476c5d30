// How paths of a sandbox policy relate: one lies inside another, by whole segments ('/ab' is not
// inside '/a'). Every decision of the form "is this under that" goes through here.
import path from 'node:path';

/** `file` is `folder` itself or lies beneath it. */
export function isAtOrUnder(file: string, folder: string): boolean {
  return file === folder || file.startsWith(folder === path.sep ? folder : folder + path.sep);
}

/** `file` lies beneath `folder`, and is not `folder` itself. */
export const isStrictlyUnder = (file: string, folder: string): boolean => file !== folder && isAtOrUnder(file, folder);

/** How many segments deep `file` is: `/` is 0, `/usr` is 1. */
export const depth = (file: string): number => file.split(path.sep).filter(Boolean).length;

export const unique = <T>(values: T[]): T[] => [...new Set(values)];
