// End to end, the README's quick start as a newcomer follows it, both ways. The UI way in real
// Chromium against a fresh daemon whose PATH holds no agent CLI (only sh and cat): the custom
// command becomes the default agent, the first prompt is answered, an automation is made and run
// now, a webhook is made and called with an HTTP POST, and the activity feed shows all three. The
// API way runs the README's own shell blocks, in order, in bash against a second daemon, and checks
// what the last one prints. Screenshots go to test-artifacts/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp';
import { artifacts, bareBin, useE2e } from '../support/e2e';
import { type Server, root, startDaemon } from '../support/processes';
import { lacks } from '../support/requirements';

const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
const answers = ['you said: hello, Steward', 'you said: good morning', 'you said: Deploy report: {"service":"api","version":"1.4.2"}'];

const skipUi = lacks('chromium');
const skipShell = lacks('shell');

describe.skipIf(skipUi)('the quick start, the UI way', () => {
  // The login link is the first test's to open.
  const e2e = useE2e({ name: 'quick-start', barePath: true, login: false });
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: path.join(artifacts, `quick-start-${name}.png`), fullPage: true });

  beforeAll(() => {
    ({ page } = e2e);
  });

  it('names the controls this test uses, as the UI labels them', () => {
    for (const label of ['Welcome to Steward', 'Any command', 'Add argument', 'Use this agent', 'First prompt', 'New automation', 'Create automation', 'Run now', 'New webhook', 'Create webhook', 'Activity']) {
      expect(quickStart, label).toContain(label);
    }
  });

  it('1–2: picks a command as the agent and answers the first prompt', async () => {
    await page.goto(e2e.loginLink);
    const card = page.getByRole('region', { name: 'Welcome to Steward' });
    await expect.poll(() => card.isVisible(), { timeout: 15_000 }).toBe(true);
    await card.getByRole('radio', { name: 'Any command' }).check();
    const form = card.getByRole('form', { name: 'Agent of Steward' });
    await form.getByLabel('Command', { exact: true }).fill('sh');
    await form.getByRole('button', { name: 'Add argument' }).click();
    await form.getByRole('button', { name: 'Add argument' }).click();
    await form.getByLabel('Argument 1', { exact: true }).fill('-c');
    await form.getByLabel('Argument 2', { exact: true }).fill('echo "you said: $(cat)"');
    await form.getByRole('button', { name: 'Use this agent' }).click();
    await expect.poll(() => card.getByRole('status', { name: 'Steward status' }).textContent(), { timeout: 20_000 }).toMatch(/^Ready: custom:sh · sandbox \(/);

    const prompt = card.getByLabel('First prompt');
    await prompt.fill('hello, Steward');
    await prompt.press('Enter');
    await expect.poll(() => card.getByRole('log', { name: 'First answer' }).textContent(), { timeout: 20_000 }).toContain(answers[0]);
    await expect.poll(() => card.getByText('It works.').isVisible()).toBe(true);
    await shot('1-first-prompt');
  });

  it('3: makes an automation and runs it now', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Automations' }).click();
    await page.getByRole('button', { name: 'New automation' }).first().click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Name').fill('Morning');
    await form.getByLabel('Prompt').fill('good morning');
    await form.getByLabel('Schedule (cron)').fill('0 9 * * *');
    await expect.poll(() => form.getByTestId('cron-description').textContent()).toMatch(/^At 09:00/);
    await form.getByRole('button', { name: 'Create automation' }).click();
    const automation = page.getByRole('article', { name: 'Morning' });
    await expect.poll(() => automation.isVisible()).toBe(true);
    await automation.getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => page.url()).toMatch(/#\/runs\/run_\w+$/);
    await expect.poll(() => page.getByRole('log', { name: 'Transcript' }).textContent(), { timeout: 20_000 }).toContain(answers[1]);
    await shot('2-run-now');
  });

  it('4: makes a webhook and calls its trigger URL with an HTTP POST', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'New webhook' }).first().click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Name').fill('Deploys');
    await form.getByLabel('Prompt template').fill('Deploy report: {{payload}}');
    await form.getByRole('button', { name: 'Create webhook' }).click();
    const webhook = page.getByRole('article', { name: 'Deploys' });
    await expect.poll(() => webhook.getByTestId('trigger-url').isVisible()).toBe(true);
    const url = (await webhook.getByTestId('trigger-url').textContent())!;
    expect(await webhook.getByLabel('curl example').textContent()).toContain(url);
    // What `curl -X POST "$URL" -H 'Content-Type: application/json' -d …` sends: no key, the URL is the secret.
    const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"service":"api","version":"1.4.2"}' });
    expect(answer.status).toBe(202);
    expect(((await answer.json()) as { run: { status: string } }).run.status).toBe('queued');
    await shot('3-webhook');
  });

  it('5: shows all three in the activity feed, tagged by where they came from', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Activity' }).click();
    const stream = page.getByRole('log', { name: 'Activity stream' });
    for (const text of answers) await expect.poll(() => stream.textContent(), { timeout: 20_000 }).toContain(text);
    // The first prompt was written in the app (chat); "Run now" is by hand (api).
    expect(await stream.locator('.tag.chat').count()).toBeGreaterThanOrEqual(2);
    expect(await stream.locator('.tag.api').count()).toBeGreaterThanOrEqual(2);
    expect(await stream.locator('.tag.hook').count()).toBeGreaterThanOrEqual(1);
    await shot('4-activity');
  });
}, 180_000);

/** The README's shell blocks of the quick start, in order. */
function shellBlocks(): string[] {
  return [...quickStart.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

/**
 * Waits until no run is queued or running and no instance is being probed: what a reader does by
 * looking before the next step. Defined in the script the blocks run in.
 */
const settle = `settle() {
  local count
  for _ in $(seq 1 300); do
    count=$(curl -s "$API/runs?status=queued" -H "Authorization: Bearer $KEY" | jq '.runs | length')
    count=$count$(curl -s "$API/runs?status=running" -H "Authorization: Bearer $KEY" | jq '.runs | length')
    count=$count$(curl -s "$API/instances" -H "Authorization: Bearer $KEY" | jq '[.instances[] | select(.status == "provisioning")] | length')
    [ "$count" = 000 ] && return 0
    sleep 0.2
  done
  echo "runs still queued or running after 60 s" >&2
  return 1
}`;

describe.skipIf(skipShell)("the quick start, the README's API way", () => {
  let daemon: Server;
  let bin: string;
  let dataDir: string;

  beforeAll(async () => {
    bin = bareBin();
    dataDir = tempDir('steward-quick-start-api-');
    daemon = await startDaemon(dataDir, ['--port', '0'], { PATH: bin });
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    for (const dir of [bin, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs every block as written and ends with the three answers in the feed', () => {
    const blocks = shellBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const { host } = new URL(daemon.url);
    const script = [
      'set -euo pipefail',
      // `npm run cli -- …` is the CLI from source here, on the daemon's data folder (npm's would build out/ first).
      `npm() { if [ "\${1:-} \${2:-} \${3:-}" = "run cli --" ]; then shift 3; node --import tsx src/main/cli.ts "$@" --data-dir ${JSON.stringify(dataDir)}; else command npm "$@"; fi; }`,
      settle,
      ...blocks.flatMap((block, index) => [`echo "--- block ${index + 1}"`, block.replaceAll('127.0.0.1:7321', host), 'settle']),
    ].join('\n');
    const result = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', timeout: 150_000, env: { ...process.env, STEWARD_LOG_LEVEL: 'warn' } });
    const said = `exit ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
    expect(result.status, said).toBe(0);
    const feed = result.stdout.slice(result.stdout.lastIndexOf('--- block'));
    expect(feed, said).toContain(`api\t${answers[0]}`);
    expect(feed, said).toContain(`api\t${answers[1]}`);
    expect(feed, said).toContain(`hook\t${answers[2]}`);
    expect(result.stdout, said).toMatch(/"run":\{"id":"run_\w+","status":"queued"/);
  }, 180_000);
});
