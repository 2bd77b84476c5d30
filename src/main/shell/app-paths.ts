// Where the desktop app finds its own files, developing (`npm start`: the project folder) and
// packaged (resources/app.asar, with native modules in app.asar.unpacked beside it and the tray
// icons as plain files in resources/tray). Pure: Electron's answers come in as `AppLayout`.
import nodePath from 'node:path';

export interface AppLayout {
  /** app.getAppPath(): the project folder, or …/resources/app.asar when packaged. */
  appPath: string;
  /** process.resourcesPath: …/resources when packaged. */
  resourcesPath: string;
  isPackaged: boolean;
  /** process.versions.modules: the runtime's native module ABI. */
  abi: string;
}

type PathApi = Pick<typeof nodePath, 'join' | 'dirname' | 'basename'>;

/** out/native/electron-<abi>/better_sqlite3.node, as scripts/electron-sqlite.mjs writes it. */
export function nativeSqliteRelative(abi: string): string[] {
  return ['out', 'native', `electron-${abi}`, 'better_sqlite3.node'];
}

/**
 * better-sqlite3 built for this Electron's ABI. Packaged, it is the unpacked copy (the OS loads a
 * library from a real file, not from inside an archive) and is always named, so that a missing one
 * fails loudly instead of falling back to the Node build. Developing, it is used when built;
 * otherwise undefined and better-sqlite3 looks for its own.
 */
export function electronSqliteBinding(layout: AppLayout, exists: (file: string) => boolean, path: PathApi = nodePath): string | undefined {
  const relative = nativeSqliteRelative(layout.abi);
  if (layout.isPackaged) {
    const unpacked = path.basename(layout.appPath) === 'app.asar' ? path.join(path.dirname(layout.appPath), 'app.asar.unpacked') : layout.appPath;
    return path.join(unpacked, ...relative);
  }
  const file = path.join(layout.appPath, ...relative);
  return exists(file) ? file : undefined;
}

/** The folder holding the tray icons. */
export function trayIconDir(layout: AppLayout, path: PathApi = nodePath): string {
  return layout.isPackaged ? path.join(layout.resourcesPath, 'tray') : path.join(layout.appPath, 'resources', 'tray');
}
