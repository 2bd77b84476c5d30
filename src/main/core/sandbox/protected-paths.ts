// What a sandboxed run may not touch though it lies where it otherwise could. The places in a home
// folder where a user's credentials live (keys, cloud and registry logins, password stores, browser
// profiles and keychains) are hidden wherever a home folder is visible (readAllow or writeAllow of
// ~). The files of a writable folder that start programs later, outside the sandbox (git hooks and
// config, a CLI's project settings and MCP servers, an editor's tasks, direnv, and in a home folder
// the shells' startup files) may not be written, nor created, unless writeAllow names them.
import path from 'node:path';

const everywhere = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.config/gh',
  '.config/hub',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.config/op',
  '.password-store',
  '.pki',
];

const linux = [
  '.local/share/keyrings',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  '.config/opera',
  'snap/firefox',
  'snap/chromium',
];

const macos = [
  'Library/Keychains',
  'Library/Cookies',
  'Library/Safari',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Chromium',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
  'Library/Application Support/com.apple.TCC',
];

/** The credential stores under `home` on `platform`, whether they exist or not. */
export function credentialStores(home: string, platform: NodeJS.Platform = process.platform): string[] {
  const own = platform === 'darwin' ? macos : linux;
  return [...everywhere, ...own].map((relative) => path.join(home, relative));
}

/** A file or folder that starts programs later; `folder` ones are kept whole. */
export interface StartupEntry {
  relative: string;
  kind: 'file' | 'folder';
}

/** The shells' startup files: a workspace may be someone's home, or become one when a user opens a shell there. */
const shellStartup = ['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin'];

/** In every writable folder (the workspace, writeAllow). `.git/hooks` and `.git/config` are handled apart (startupEntries). */
const inAnyFolder: StartupEntry[] = [
  ...shellStartup.map((relative) => ({ relative, kind: 'file' as const })),
  ...['.gitmodules', '.mcp.json', '.envrc', 'opencode.json', 'opencode.jsonc', '.claude/settings.json', '.claude/settings.local.json', '.gemini/settings.json'].map((relative) => ({ relative, kind: 'file' as const })),
  ...['.claude/commands', '.claude/agents', '.claude/skills', '.vscode', '.idea'].map((relative) => ({ relative, kind: 'folder' as const })),
];

/**
 * Inside OpenCode's project folder, which OpenCode itself writes (its .gitignore, its plugins'
 * dependencies): the plugins and tools it loads as code, and its config. Like `.git`, only where
 * the folder exists (a placeholder for it would keep OpenCode from starting).
 */
const inOpenCodeFolder: StartupEntry[] = [
  ...['.opencode/opencode.json', '.opencode/opencode.jsonc'].map((relative) => ({ relative, kind: 'file' as const })),
  ...['.opencode/plugin', '.opencode/plugins', '.opencode/tool', '.opencode/tools'].map((relative) => ({ relative, kind: 'folder' as const })),
];

/** In a home folder, when the run may write it: git's startup file, and the user's services (the shells' are in every folder). */
const inHome: StartupEntry[] = [
  { relative: '.gitconfig', kind: 'file' as const },
  ...['.config/git', '.config/autostart', '.config/systemd', '.config/fish'].map((relative) => ({ relative, kind: 'folder' as const })),
];

/** What a writable folder holds of the tools' own folders: `.git` a folder, a file (a worktree's pointer) or absent; `.opencode`, `.codex` or not. */
export interface ToolFolders {
  git: 'folder' | 'file' | 'absent';
  opencode: boolean;
  codex: boolean;
}

/**
 * What of a writable folder starts programs later. A repository's hooks and config are protected
 * where `.git` is a folder; where it is a file (a worktree's or a submodule's pointer) the file is,
 * which keeps it one. A folder without `.git` gets nothing there: a run may `git init`, and what it
 * then writes into the new repository's hooks is the run's own (the next run finds them protected).
 * The same for OpenCode's `.opencode`, and Codex's `.codex` (kept whole where it exists; where it
 * does not, a placeholder would be a project configuration to Codex, which then turns off MCP
 * servers, Steward's included, in a project it is not told to trust: Codex's trust decides there).
 */
export function startupEntries(folders: ToolFolders, isHome: boolean): StartupEntry[] {
  const git: StartupEntry[] =
    folders.git === 'folder'
      ? [
          { relative: '.git/hooks', kind: 'folder' },
          { relative: '.git/config', kind: 'file' },
        ]
      : folders.git === 'file'
        ? [{ relative: '.git', kind: 'file' }]
        : [];
  const codex: StartupEntry[] = folders.codex ? [{ relative: '.codex', kind: 'folder' }] : [];
  return [...git, ...inAnyFolder, ...codex, ...(folders.opencode ? inOpenCodeFolder : []), ...(isHome ? inHome : [])];
}
