// Records what each real agent CLI (the pinned ones in .cache/agent-clis) prints when its model
// server refuses it: HTTP 429, 529, a dropped connection, and (Claude Code, Codex) a usage limit.
// The recordings (test/fixtures/<preset>/errors/<case>.stdout, .stderr and .exit, its exit code) are what the runner's
// error classifier is tested on. Each CLI is told to retry little, and each run is cut at 60 s (OpenCode's at 15 s).
//   node scripts/record-agent-errors.mjs [preset | preset:case ...]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, '.cache/agent-clis/node_modules/.bin');
const cutMs = 60_000;
/** A fixed reset time, so that recordings do not change with the day they were made. */
const resetsAt = 1_795_440_000;

/** The model server's answer to every request, per case and wire format. */
function refuse(kind, wire, res) {
  if (kind === 'drop') return res.socket.destroy();
  const bodies = {
    anthropic: {
      429: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } },
      529: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      usage: { type: 'error', error: { type: 'rate_limit_error', message: 'This request would exceed your account\'s rate limit. Please try again later.' } },
    },
    openai: {
      429: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
      529: { error: { message: 'The server is overloaded, please try again later.', type: 'server_error', code: 'server_is_overloaded' } },
      usage: { error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'plus', resets_at: resetsAt, resets_in_seconds: 3600 } },
    },
    gemini: {
      429: { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } },
      529: { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } },
    },
  };
  const status = kind === 'usage' ? 429 : wire === 'gemini' && kind === '529' ? 503 : Number(kind);
  const headers = { 'content-type': 'application/json' };
  // Claude Code reads a subscription's limit from these headers (its rate_limit_event).
  if (kind === 'usage' && wire === 'anthropic') {
    Object.assign(headers, { 'anthropic-ratelimit-unified-status': 'rejected', 'anthropic-ratelimit-unified-reset': String(resetsAt), 'anthropic-ratelimit-unified-representative-claim': 'five_hour' });
  }
  res.writeHead(status, headers).end(JSON.stringify(bodies[wire][kind]));
}

function serve(kind, wire) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // The model list and token counts are asked for on the side: answer them plainly.
      if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"models":[]}');
      refuse(kind, wire, res);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const clis = {
  'claude-code': {
    wire: 'anthropic',
    cases: ['429', '529', 'drop', 'usage'],
    // A usage limit is a subscription's (an OAuth login): with an API key the CLI ignores its headers.
    command: (home, url, kind) => ({
      args: ['claude', '-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'],
      env: { ANTHROPIC_BASE_URL: url, ...(kind === 'usage' ? { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-test' } : { ANTHROPIC_API_KEY: 'test-key' }), ANTHROPIC_MODEL: 'claude-sonnet-4-5', IS_SANDBOX: '1', CLAUDE_CONFIG_DIR: path.join(home, 'claude'), CLAUDE_CODE_MAX_RETRIES: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1' },
    }),
  },
  codex: {
    wire: 'openai',
    cases: ['429', '529', 'drop', 'usage'],
    command(home, url) {
      const codexHome = path.join(home, 'codex');
      fs.mkdirSync(codexHome, { recursive: true });
      const config = `model = "test-model"\nmodel_provider = "local"\ncheck_for_update_on_startup = false\n[analytics]\nenabled = false\n[feedback]\nenabled = false\n[features]\nplugins = false\nremote_plugin = false\napps = false\n[model_providers.local]\nname = "Local"\nbase_url = "${url}/v1"\nenv_key = "LOCAL_MODEL_KEY"\nwire_api = "responses"\nrequest_max_retries = 0\nstream_max_retries = 0\n`;
      fs.writeFileSync(path.join(codexHome, 'config.toml'), config);
      return { args: ['codex', 'exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check', '-'], env: { CODEX_HOME: codexHome, LOCAL_MODEL_KEY: 'test-key' } };
    },
  },
  gemini: {
    wire: 'gemini',
    cases: ['429', '529', 'drop'],
    command(home, url) {
      const geminiHome = path.join(home, 'gemini');
      fs.mkdirSync(path.join(geminiHome, '.gemini'), { recursive: true });
      // Two attempts, not ten: a refused request fails in seconds, not minutes.
      const settings = { security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 2 } };
      fs.writeFileSync(path.join(geminiHome, '.gemini/settings.json'), JSON.stringify(settings));
      // A model named: the `auto` router's own classifying call retries ten times whatever the setting.
      return { args: ['gemini', '--output-format', 'stream-json', '--yolo', '--model', 'gemini-2.5-flash'], env: { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'test-key', GEMINI_CLI_HOME: geminiHome, GEMINI_CLI_TRUST_WORKSPACE: 'true' } };
    },
  },
  // OpenCode retries these without end and prints nothing meanwhile: its recordings are cut.
  opencode: {
    wire: 'openai',
    cases: ['429', '529', 'drop'],
    cutMs: 15_000,
    command(home, url) {
      const config = { autoupdate: false, share: 'disabled', model: 'scripted/coder-1', provider: { scripted: { npm: '@ai-sdk/openai-compatible', name: 'Scripted', options: { baseURL: `${url}/v1`, apiKey: 'sk-scripted' }, models: { 'coder-1': { name: 'Coder 1' } } } } };
      const dir = path.join(home, '.config/opencode');
      fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
      const dependencies = { '@opencode-ai/plugin': '1.18.33' };
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ dependencies }));
      fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }));
      return { args: ['opencode', 'run', '--format', 'json', '--auto', '-m', 'scripted/coder-1'], env: { OPENCODE_CONFIG_CONTENT: JSON.stringify(config), OPENCODE_DISABLE_MODELS_FETCH: '1' } };
    },
  },
};

async function record(preset, kind) {
  const { wire, command, cutMs: cutAfter = cutMs } = clis[preset];
  const server = await serve(kind, wire);
  const url = `http://127.0.0.1:${server.address().port}`;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `record-${preset}-`));
  const { args, env } = command(home, url, kind);
  const started = Date.now();
  const child = spawn(path.join(bin, args[0]), args.slice(1), {
    cwd: home,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local/share'), XDG_CACHE_HOME: path.join(home, '.cache'), XDG_STATE_HOME: path.join(home, '.local/state'), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    // A group of its own: the cut ends the CLI and whatever it relaunched itself as.
    detached: true,
  });
  child.stdin.end('Say hello.');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let wasCut = false;
  const cut = setTimeout(() => {
    wasCut = true;
    process.kill(-child.pid, 'SIGKILL');
  }, cutAfter);
  const code = await new Promise((resolve) => child.on('close', (exitCode, signal) => resolve(exitCode ?? signal)));
  clearTimeout(cut);
  server.close();
  fs.rmSync(home, { recursive: true, force: true });
  const dir = path.join(root, 'test/fixtures', preset, 'errors');
  fs.mkdirSync(dir, { recursive: true });
  // The server's port changes with each recording: it is written as a fixed one.
  const fixed = (text) => text.replaceAll(url, 'http://127.0.0.1:9').replaceAll(home, '/home/me');
  fs.writeFileSync(path.join(dir, `${kind}.stdout`), fixed(stdout));
  fs.writeFileSync(path.join(dir, `${kind}.stderr`), fixed(stderr));
  // `cut`: it was still going when the recording ended.
  fs.writeFileSync(path.join(dir, `${kind}.exit`), `${wasCut ? 'cut' : code}\n`);
  console.log(`${preset} ${kind}: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s, ${stdout.length} + ${stderr.length} bytes`);
}

// Arguments: presets, or preset:case for one recording.
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(clis);
for (const each of wanted) {
  const [preset, only] = each.split(':');
  for (const kind of clis[preset].cases.filter((one) => only === undefined || one === only)) await record(preset, kind);
}
