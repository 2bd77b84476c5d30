// The Gemini run's own home: the user's settings (comments and all) with Steward's server added,
// everything else of the user's linked, and what Gemini wrote anew kept in the user's .gemini.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addStewardToInstanceSettings, geminiHomeWithSteward, stripJsonComments } from '../../src/main/core/agents/presets/gemini-home';
import { tempDir } from '../support/core';

const dirs: string[] = [];
const dir = () => {
  const made = tempDir('steward-gemini-home-');
  dirs.push(made);
  return made;
};
afterAll(() => dirs.forEach((made) => fs.rmSync(made, { recursive: true, force: true })));

describe('stripJsonComments', () => {
  it('drops // and /* */ comments but keeps them inside strings', () => {
    const text = '{\n  // the model\n  "url": "http://x//y", /* a\n block */ "a": "/* no */"\n}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ url: 'http://x//y', a: '/* no */' });
    expect(JSON.parse(stripJsonComments('{"q": "say \\"//\\" here"}'))).toEqual({ q: 'say "//" here' });
  });
});

describe('geminiHomeWithSteward', () => {
  it("adds Steward to the user's settings in a home of the run's own, and keeps what Gemini wrote there", () => {
    const userHome = dir();
    const userGemini = path.join(userHome, '.gemini');
    fs.mkdirSync(userGemini);
    fs.writeFileSync(path.join(userGemini, 'settings.json'), '{\n  // mine\n  "security": {"auth": {"selectedType": "gemini-api-key"}},\n  "mcpServers": {"docs": {"httpUrl": "https://docs.example/mcp"}}\n}');
    fs.writeFileSync(path.join(userGemini, 'oauth_creds.json'), '{"token": "t"}');
    fs.writeFileSync(path.join(userGemini, 'projects.json'), JSON.stringify({ projects: { '/old': 'old' } }));
    const server = { url: 'http://127.0.0.1:7321/mcp', key: 'stw_run', configDir: dir(), atEnd: [] as (() => void)[] };

    const home = geminiHomeWithSteward(server, { GEMINI_CLI_HOME: userHome })!;
    const runGemini = path.join(home, '.gemini');
    const settings = JSON.parse(fs.readFileSync(path.join(runGemini, 'settings.json'), 'utf8'));
    expect(settings.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    expect(settings.mcpServers).toEqual({
      docs: { httpUrl: 'https://docs.example/mcp' },
      steward: { httpUrl: server.url, headers: { Authorization: 'Bearer stw_run' }, trust: true },
    });
    expect(fs.statSync(path.join(runGemini, 'settings.json')).mode & 0o077).toBe(0);
    expect(fs.readlinkSync(path.join(runGemini, 'oauth_creds.json'))).toBe(path.join(userGemini, 'oauth_creds.json'));
    expect(fs.readlinkSync(path.join(runGemini, 'tmp'))).toBe(path.join(userGemini, 'tmp'));

    // Gemini saves its project registry by rename (past the link) and may make new files.
    fs.rmSync(path.join(runGemini, 'projects.json'));
    fs.writeFileSync(path.join(runGemini, 'projects.json'), JSON.stringify({ projects: { '/old': 'old', '/work': 'work' } }));
    fs.writeFileSync(path.join(runGemini, 'installation_id'), 'abc');
    fs.writeFileSync(path.join(runGemini, 'tmp', 'session.json'), '{}');
    for (const task of server.atEnd) task();
    expect(JSON.parse(fs.readFileSync(path.join(userGemini, 'projects.json'), 'utf8'))).toEqual({ projects: { '/old': 'old', '/work': 'work' } });
    expect(fs.readFileSync(path.join(userGemini, 'installation_id'), 'utf8')).toBe('abc');
    expect(fs.existsSync(path.join(userGemini, 'tmp', 'session.json'))).toBe(true);
    expect(JSON.parse(stripJsonComments(fs.readFileSync(path.join(userGemini, 'settings.json'), 'utf8'))).mcpServers.steward).toBeUndefined();
  });

  it('leaves a run without the tools rather than without settings it cannot read', () => {
    const userHome = dir();
    fs.mkdirSync(path.join(userHome, '.gemini'));
    fs.writeFileSync(path.join(userHome, '.gemini', 'settings.json'), '{ not json');
    expect(geminiHomeWithSteward({ url: 'u', key: 'k', configDir: dir(), atEnd: [] }, { GEMINI_CLI_HOME: userHome })).toBeUndefined();
  });
});

describe('geminiHomeWithSteward, against what a run planted in either .gemini', () => {
  /** A user's .gemini as a run with write access to it could leave it, a run home made from it, and a folder outside both. */
  function planted() {
    const userHome = dir();
    const userGemini = path.join(userHome, '.gemini');
    fs.mkdirSync(userGemini);
    fs.writeFileSync(path.join(userGemini, 'projects.json'), JSON.stringify({ projects: { '/old': 'old' } }));
    const outside = dir();
    const server = { url: 'http://127.0.0.1:7321/mcp', key: 'stw_run', configDir: dir(), atEnd: [] as (() => void)[] };
    const runGemini = path.join(geminiHomeWithSteward(server, { GEMINI_CLI_HOME: userHome })!, '.gemini');
    const end = () => server.atEnd.forEach((task) => task());
    return { userHome, userGemini, runGemini, outside, server, end };
  }

  /** Opens `fifo` for writing after `ms` (so that a blocked reader, the test's own process, gets free), and gives up after 10 s. */
  function releaseLater(fifo: string, ms: number) {
    return spawn('sh', ['-c', `sleep ${ms / 1000}; timeout 10 sh -c 'echo "{}" > "$0"' "$0"`, fifo], { stdio: 'ignore' });
  }

  it('never writes through a link it finds in the user\'s .gemini where a new entry goes', () => {
    const { userGemini, runGemini, outside, end } = planted();
    // A dangling link where the run's new file will be kept, and one where the registry's temporary file would go.
    fs.symlinkSync(path.join(outside, 'cron-job'), path.join(userGemini, 'installation_id'));
    for (let pid = process.pid - 2; pid <= process.pid + 2; pid++) fs.symlinkSync(path.join(outside, `by-pid-${pid}`), path.join(userGemini, `projects.json.${pid}.tmp`));
    fs.writeFileSync(path.join(runGemini, 'installation_id'), '* * * * * root sh -c "id > /tmp/pwned"\n');
    fs.rmSync(path.join(runGemini, 'projects.json'));
    fs.writeFileSync(path.join(runGemini, 'projects.json'), JSON.stringify({ projects: { '/work': 'work' } }));
    end();
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(JSON.parse(fs.readFileSync(path.join(userGemini, 'projects.json'), 'utf8'))).toEqual({ projects: { '/old': 'old', '/work': 'work' } });
  });

  it("copies nothing from outside when the run replaced its own .gemini, or a folder in it, with a link", () => {
    const { userGemini, runGemini, outside, end } = planted();
    fs.writeFileSync(path.join(outside, 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\n');
    fs.mkdirSync(path.join(runGemini, 'commands'));
    fs.symlinkSync(path.join(outside, 'id_ed25519'), path.join(runGemini, 'commands', 'key'));
    fs.renameSync(runGemini, `${runGemini}.moved`);
    fs.symlinkSync(outside, runGemini);
    end();
    expect(fs.existsSync(path.join(userGemini, 'id_ed25519'))).toBe(false);

    const second = planted();
    fs.mkdirSync(path.join(second.runGemini, 'commands'));
    fs.symlinkSync(path.join(outside, 'id_ed25519'), path.join(second.runGemini, 'commands', 'key'));
    fs.writeFileSync(path.join(second.runGemini, 'commands', 'mine.toml'), 'prompt = "hi"\n');
    second.end();
    expect(fs.readdirSync(path.join(second.userGemini, 'commands'))).toEqual(['mine.toml']);
  });

  it('does not block on a FIFO in place of the registry, in the run\'s .gemini or the user\'s', () => {
    for (const where of ['run', 'user'] as const) {
      const { userGemini, runGemini, end } = planted();
      fs.rmSync(path.join(runGemini, 'projects.json'));
      if (where === 'run') execFileSync('mkfifo', [path.join(runGemini, 'projects.json')]);
      else {
        fs.writeFileSync(path.join(runGemini, 'projects.json'), JSON.stringify({ projects: { '/work': 'work' } }));
        fs.rmSync(path.join(userGemini, 'projects.json'));
        execFileSync('mkfifo', [path.join(userGemini, 'projects.json')]);
      }
      const fifo = path.join(where === 'run' ? runGemini : userGemini, 'projects.json');
      const release = releaseLater(fifo, 2_000);
      const started = Date.now();
      end();
      release.kill();
      expect(Date.now() - started).toBeLessThan(1_000);
    }
  });

  it("does not block on, or copy into the run's settings, a user settings.json that is a FIFO or a link", () => {
    const userHome = dir();
    const userGemini = path.join(userHome, '.gemini');
    fs.mkdirSync(userGemini);
    const server = () => ({ url: 'http://127.0.0.1:7321/mcp', key: 'stw_run', configDir: dir(), atEnd: [] as (() => void)[] });
    // Another CLI's login, which this run's sandbox hides from it.
    const login = path.join(dir(), 'auth.json');
    fs.writeFileSync(login, JSON.stringify({ OPENAI_API_KEY: 'sk-the-users-own' }));
    fs.symlinkSync(login, path.join(userGemini, 'settings.json'));
    const linked = geminiHomeWithSteward(server(), { GEMINI_CLI_HOME: userHome });
    if (linked !== undefined) expect(fs.readFileSync(path.join(linked, '.gemini/settings.json'), 'utf8')).not.toContain('sk-the-users-own');

    fs.rmSync(path.join(userGemini, 'settings.json'));
    execFileSync('mkfifo', [path.join(userGemini, 'settings.json')]);
    const release = releaseLater(path.join(userGemini, 'settings.json'), 2_000);
    const started = Date.now();
    geminiHomeWithSteward(server(), { GEMINI_CLI_HOME: userHome });
    release.kill();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('addStewardToInstanceSettings (a sandboxed run: the instance has a Gemini home of its own)', () => {
  const server = (configDir: string) => ({ url: 'http://127.0.0.1:7321/mcp', key: 'stw_run', configDir, atEnd: [] as (() => void)[] });

  it("adds Steward's server to the instance's settings for the run and takes it out when the run ends", () => {
    const state = dir();
    fs.mkdirSync(path.join(state, '.gemini'));
    fs.writeFileSync(path.join(state, '.gemini/settings.json'), '{\n  // the user\'s, brought in\n  "mcpServers": {"docs": {"httpUrl": "https://docs.example/mcp"}}\n}');
    const grant = server(dir());
    addStewardToInstanceSettings(grant, state);
    const during = JSON.parse(fs.readFileSync(path.join(state, '.gemini/settings.json'), 'utf8'));
    expect(Object.keys(during.mcpServers)).toEqual(['docs', 'steward']);
    expect(during.mcpServers.steward).toEqual({ httpUrl: 'http://127.0.0.1:7321/mcp', headers: { Authorization: 'Bearer stw_run' }, trust: true });
    for (const task of grant.atEnd) task();
    expect(JSON.parse(fs.readFileSync(path.join(state, '.gemini/settings.json'), 'utf8'))).toEqual({ mcpServers: { docs: { httpUrl: 'https://docs.example/mcp' } } });
  });

  it('leaves settings it cannot read alone, and writes through no link a run left', () => {
    const state = dir();
    fs.mkdirSync(path.join(state, '.gemini'));
    fs.writeFileSync(path.join(state, '.gemini/settings.json'), '{ not json');
    addStewardToInstanceSettings(server(dir()), state);
    expect(fs.readFileSync(path.join(state, '.gemini/settings.json'), 'utf8')).toBe('{ not json');
    const victim = path.join(dir(), 'precious.json');
    fs.writeFileSync(victim, '{}');
    fs.rmSync(path.join(state, '.gemini/settings.json'));
    fs.symlinkSync(victim, path.join(state, '.gemini/settings.json'));
    addStewardToInstanceSettings(server(dir()), state);
    expect(fs.readFileSync(victim, 'utf8')).toBe('{}');
    expect(fs.lstatSync(path.join(state, '.gemini/settings.json')).isFile()).toBe(true);
  });
});
