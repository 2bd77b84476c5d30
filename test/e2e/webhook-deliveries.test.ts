// End to end: a GitHub-signed webhook's deliveries in the web UI (built from source, in real
// Chromium, against a real headless daemon). Its rows say apart what Steward did with each request
// (accepted, a duplicate, filtered out, refused for a bad signature) and how its run is doing,
// following the run from queued to failed without a reload; Replay of the refused one asks first,
// naming why it was refused (Cancel runs nothing, Replay anyway runs it); the card's curl example,
// copied and run in sh, is accepted (202) for every signature scheme; a webhook whose runs wait for
// a person says so; at 390 px the deliveries stay within the page. Skipped, with a line naming what
// to install, where Chromium is missing (requirements.ts).
import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';

const e2e = useE2e({ name: 'deliveries', prepare: (context, origin) => context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin }) });
const { skip, api } = e2e;
const unsandboxed = { mode: 'off', network: [], readDeny: [], writeAllow: [] };
const secret = 'e2e-github-secret';
let page: Page;
let origin: string;

type Webhook = { id: string; token: string; name: string };
type Delivery = { id: string; origin: string; outcome: string; runId: string | null };
const deliveriesOf = async (webhook: Webhook) => (await api<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${webhook.id}/deliveries`)).deliveries;

const send = (webhook: Webhook, body: string, headers: Record<string, string> = {}) =>
  fetch(`${origin}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
const trigger = async (webhook: Webhook, body: string, headers: Record<string, string>): Promise<number> => (await send(webhook, body, headers)).status;
interface Approval { id: string; runId: string; links: { allow: string } }

/** Fires a webhook whose runs wait for a person: the approval of that very run (not another test's). */
async function pendingApproval(webhook: Webhook, body: string): Promise<Approval> {
  const response = await send(webhook, body);
  expect(response.status).toBe(202);
  const runId = ((await response.json()) as { run: { id: string } }).run.id;
  const { approvals } = await api<{ approvals: Approval[] }>('GET', `/api/approvals?status=pending&runId=${runId}`);
  expect(approvals).toHaveLength(1);
  return approvals[0];
}

// The page's own globals, for functions page.evaluate runs there (the tests compile without the DOM library).
type PageGlobals = {
  navigator: { clipboard: { readText(): Promise<string> } };
  innerWidth: number;
  getComputedStyle(element: unknown, pseudo: string): { content: string };
};

const githubSigned = (body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The example as the page shows it, run in sh with the secret set; curl prints only the HTTP status. */
async function runExample(example: string, webhookSecret: string): Promise<string> {
  const script = `curl() { command curl -s -o /dev/null -w '%{http_code}' "$@"; }\n${example}\n`;
  const { stdout } = await promisify(execFile)('sh', ['-c', script], { env: { ...process.env, WEBHOOK_SECRET: webhookSecret } });
  return stdout.trim();
}

beforeAll(async () => {
  if (skip) return;
  ({ page, origin } = e2e);
});

describe.skipIf(skip)('deliveries that tell the truth', () => {
  let webhook: Webhook;
  let instanceId: string;

  it('says apart what Steward did with each request and how its run goes, live', async () => {
    // Its runs fail, after long enough for their row to be seen before they end.
    ({ instance: { id: instanceId } } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Breaks', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'sleep 5; echo broken >&2; exit 3'] }, sandbox: unsandboxed }));
    ({ webhook } = await api<{ webhook: Webhook }>('POST', '/api/webhooks', { name: 'GitHub CI', sender: 'github', signature: { secret }, instanceId, filter: [{ payload: 'event', in: ['deploy', 'example'] }] }));
    expect(await trigger(webhook, '{"event":"deploy"}', { 'x-hub-signature-256': 'sha256=00', 'x-github-delivery': 'forged-1' })).toBe(401);
    expect(await trigger(webhook, '{"event":"ping"}', { 'x-hub-signature-256': githubSigned('{"event":"ping"}'), 'x-github-delivery': 'ping-1' })).toBe(200);

    await page.goto(`${origin}/#/webhooks`);
    const card = page.getByRole('article', { name: 'GitHub CI' });
    const table = card.getByRole('table', { name: 'Deliveries of GitHub CI' });
    await expect.poll(() => table.getByRole('columnheader').allTextContents()).toEqual(['When', 'HTTP', 'Accepted / refused', 'Run', 'Actions']);
    const refusedRow = table.locator('tbody').getByRole('row').filter({ hasText: 'Refused' });
    await expect.poll(() => refusedRow.textContent()).toContain('Refused: its signature did not match');
    expect(await refusedRow.textContent()).toContain('no run');
    const filteredRow = table.locator('tbody').getByRole('row').filter({ hasText: 'Filtered out' });
    expect(await filteredRow.textContent()).toContain('payload event is "ping"');
    expect(await filteredRow.textContent()).toContain('no run');

    // With the page open: an accepted request, then the same GitHub delivery again.
    const body = '{"event":"deploy"}';
    const headers = { 'x-hub-signature-256': githubSigned(body), 'x-github-delivery': 'deploy-1' };
    expect(await trigger(webhook, body, headers)).toBe(202);
    expect(await trigger(webhook, body, headers)).toBe(200);
    const acceptedRow = table.locator('tbody').getByRole('row').filter({ hasText: 'Accepted' }).filter({ hasNotText: 'duplicate' });
    // Its run is shown before it ends: queued, or already running.
    await expect.poll(async () => (await acceptedRow.getByRole('link').getAttribute('aria-label')) ?? '', { timeout: 10_000 }).toMatch(/: (queued|running)$/);
    // The duplicate starts no run: it too appears without Refresh.
    const duplicateRow = table.locator('tbody').getByRole('row').filter({ hasText: 'Accepted as a duplicate' });
    await expect.poll(() => duplicateRow.count()).toBe(1);
    expect(await duplicateRow.getByRole('link').textContent()).toBe('Original run');
    await page.screenshot({ path: path.join(artifacts, 'webhook-deliveries-live.png'), fullPage: true });

    // A request refused for its signature, with the page open: its row appears without a click.
    const refusedRows = table.locator('tbody').getByRole('row').filter({ hasText: 'Refused' });
    const refusedBefore = await refusedRows.count();
    expect(await trigger(webhook, '{"event":"deploy"}', { 'x-hub-signature-256': 'sha256=01', 'x-github-delivery': 'forged-2' })).toBe(401);
    await expect.poll(() => refusedRows.count(), { timeout: 5_000 }).toBe(refusedBefore + 1);

    // No reload from here: the run's end reaches both rows through the live events.
    for (const row of [acceptedRow, duplicateRow]) {
      await expect.poll(async () => (await row.getByRole('link').getAttribute('aria-label')) ?? '', { timeout: 30_000 }).toMatch(/: failed$/);
      expect(await row.textContent()).not.toContain('succeeded');
    }
    const runId = (await deliveriesOf(webhook)).find((each) => each.outcome === 'accepted')!.runId;
    expect((await api<{ run: { status: string } }>('GET', `/api/runs/${runId}`)).run.status).toBe('failed');
    await page.screenshot({ path: path.join(artifacts, 'webhook-deliveries-failed.png'), fullPage: true });
  }, 90_000);

  it('replays the refused delivery only after a question naming why it was refused', async () => {
    const card = page.getByRole('article', { name: 'GitHub CI' });
    // Two were refused for their signature: the older one is replayed.
    const refusedRow = card.locator('tbody').getByRole('row').filter({ hasText: 'Refused' }).last();
    const before = await deliveriesOf(webhook);
    const question = 'This delivery was refused: its signature did not match. Replaying runs this unverified body. Replay anyway?';

    await refusedRow.getByRole('button', { name: /^Replay delivery/ }).click();
    const asking = card.getByRole('group', { name: question });
    await expect.poll(() => asking.isVisible()).toBe(true);
    await page.screenshot({ path: path.join(artifacts, 'webhook-deliveries-replay-question.png'), fullPage: true });
    await asking.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => asking.count()).toBe(0);
    expect(await deliveriesOf(webhook)).toEqual(before);

    await refusedRow.getByRole('button', { name: /^Replay delivery/ }).click();
    await asking.getByRole('button', { name: 'Replay anyway' }).click();
    await expect.poll(() => card.getByRole('status').textContent(), { timeout: 10_000 }).toBe('Replayed: a new run, queued. Open the run');
    const replayedRun = card.getByRole('status').getByRole('link', { name: 'Open the run' });
    expect(await replayedRun.getAttribute('href')).toMatch(/^#\/runs\/run_/);
    const replays = (await deliveriesOf(webhook)).filter((each) => each.origin === 'replay');
    expect(replays).toHaveLength(1);
    expect(replays[0]).toMatchObject({ outcome: 'accepted', runId: expect.stringMatching(/^run_/) });
  }, 60_000);

  it('gives a curl example that a signed webhook accepts, for every scheme', async () => {
    const standardSecret = `whsec_${randomBytes(24).toString('base64')}`;
    // Stripe and Slack with their presets' templates: the example's request fills every field of them.
    const others = [
      { name: 'Stripe events', sender: 'stripe', signature: { secret: 'e2e-stripe-secret' }, prompt: /^Stripe sent a "payment_intent\.succeeded" event \(evt_example_\d+\)\.$/ },
      { name: 'Slack events', sender: 'slack', signature: { secret: 'e2e-slack-secret' }, prompt: /^Slack sent a "message" event from U0EXAMPLE in C0EXAMPLE:$/ },
      { name: 'Standard events', signature: { scheme: 'standard', secret: standardSecret }, promptTemplate: 'Event: {{payload}}', prompt: /^Event: \{"event": "example"\}$/ },
    ];
    const made = new Map<string, Webhook>();
    for (const { prompt: _prompt, ...each } of others) made.set(each.name, (await api<{ webhook: Webhook }>('POST', '/api/webhooks', { ...each, instanceId })).webhook);
    // The filter of the first test would keep the example's GitHub event out.
    await api('PUT', `/api/webhooks/${webhook.id}`, { filter: [] });
    await page.reload();
    const firstLineOfRun = async (of: Webhook) => {
      const accepted = (await deliveriesOf(of)).find((each) => each.origin === 'sender' && each.outcome === 'accepted' && each.runId !== null);
      return (await api<{ run: { prompt: string } }>('GET', `/api/runs/${accepted!.runId}`)).run.prompt.split('\n')[0];
    };

    const card = page.getByRole('article', { name: 'GitHub CI' });
    await card.getByRole('button', { name: 'Copy example' }).click();
    const copied = await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText());
    expect(copied).toBe(await card.getByLabel('curl example').textContent());
    expect(copied).toContain('X-Hub-Signature-256');
    expect(copied).toContain('X-GitHub-Event: issues');
    const acceptedBefore = (await deliveriesOf(webhook)).filter((each) => each.outcome === 'accepted').length;
    expect(await runExample(copied, secret)).toBe('202');
    expect((await deliveriesOf(webhook)).filter((each) => each.outcome === 'accepted')).toHaveLength(acceptedBefore + 1);
    // The preset's template read with the example's headers and body: no field left empty.
    expect(await firstLineOfRun(webhook)).toBe('GitHub sent a "issues" event (action: opened) for octo-org/example, from octocat.');
    // Without the secret it says what to set, and sends nothing.
    await expect(runExample(copied, '')).rejects.toThrow(/set WEBHOOK_SECRET/);

    for (const each of others) {
      const example = (await page.getByRole('article', { name: each.name }).getByLabel('curl example').textContent())!;
      expect([each.name, await runExample(example, each.signature.secret)]).toEqual([each.name, '202']);
      expect([each.name, await firstLineOfRun(made.get(each.name)!)]).toEqual([each.name, expect.stringMatching(each.prompt)]);
    }
  }, 60_000);

  it('says on the card when each run waits for a person, and the row follows that run from waiting for you to its end', async () => {
    // An instance of its own: its run must not queue behind the earlier tests' five-second runs.
    const { instance: gate } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Gate', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'sleep 3; echo broken >&2; exit 3'] }, sandbox: unsandboxed });
    const { webhook: deploys } = await api<{ webhook: Webhook }>('POST', '/api/webhooks', { name: 'Deploys', promptTemplate: 'Deploy {{payload}}', instanceId: gate.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } });
    await page.reload();
    const card = page.getByRole('article', { name: 'Deploys' });
    expect(await card.getByTestId('approval-in-force').textContent()).toContain('Asks you before each run');
    expect(await page.getByRole('article', { name: 'GitHub CI' }).getByTestId('approval-in-force').count()).toBe(0);

    const waiting = await pendingApproval(deploys, '{"version":2}');
    const runLink = card.locator('tbody').getByRole('row').first().getByRole('link');
    await expect.poll(async () => (await runLink.getAttribute('aria-label')) ?? '', { timeout: 10_000 }).toMatch(/: waiting for you$/);
    await api('POST', `/api/approvals/${waiting.id}/decision`, { decision: 'allow' });
    // Allowed elsewhere: the row goes on with the run, and does not stay "waiting for you".
    await expect.poll(async () => (await runLink.getAttribute('aria-label')) ?? '', { timeout: 10_000 }).toMatch(/: (queued|running)$/);
    await expect.poll(async () => (await runLink.getAttribute('aria-label')) ?? '', { timeout: 30_000 }).toMatch(/: failed$/);
  }, 60_000);

  it('a run denied before it started: waiting since, whose run on the link page, the note kept with the run, then cancelled · denied by you', async () => {
    const deploys = (await api<{ webhooks: Webhook[] }>('GET', '/api/webhooks')).webhooks.find((each) => each.name === 'Deploys')!;
    const pending = await pendingApproval(deploys, '{"version":3}');

    // The runs list says it has not started, as its run page does.
    await page.goto(`${origin}/#/runs`);
    const runRow = page.locator('table.runs tbody tr').filter({ has: page.locator(`a[href="#/runs/${pending.runId}"]`) });
    await expect.poll(() => runRow.getByRole('link').first().textContent(), { timeout: 10_000 }).toMatch(/^waiting since /);

    // The link's page says whose run in words, not its id.
    const linkPage = await e2e.context.newPage();
    await linkPage.goto(pending.links.allow);
    const linkText = (await linkPage.locator('body').textContent())!;
    expect(linkText).toContain('The webhook Deploys on Gate · asked');
    expect(linkText).not.toContain(pending.runId);
    await linkPage.close();

    await page.goto(`${origin}/#/needs-you`);
    const request = page.getByRole('article', { name: 'Start a run of webhook "Deploys"?' });
    await expect.poll(() => request.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await request.getByLabel('Note (optional)').getAttribute('placeholder')).toBe('Why (kept with the run)');
    await request.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => request.count(), { timeout: 10_000 }).toBe(0);

    await page.goto(`${origin}/#/webhooks`);
    const row = page.getByRole('article', { name: 'Deploys' }).locator('tbody').getByRole('row').first();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('cancelled · denied by you');
    await page.goto(`${origin}/#/runs`);
    await expect.poll(() => runRow.textContent(), { timeout: 10_000 }).toContain('cancelled · denied by you');
    expect(await runRow.getByRole('link').first().textContent()).toMatch(/^not started · /);
    await page.goto(`${origin}/#/webhooks`);
  }, 60_000);

  it('at 390 px the deliveries are cards that stay within the page', async () => {
    await page.goto(`${origin}/#/webhooks`);
    await page.setViewportSize({ width: 390, height: 844 });
    const table = page.getByRole('table', { name: 'Deliveries of GitHub CI' });
    await table.scrollIntoViewIfNeeded();
    const right = await table.evaluate((element) => ({ table: element.getBoundingClientRect().right, scroll: element.scrollWidth - element.clientWidth, width: (globalThis as unknown as PageGlobals).innerWidth }));
    expect(right.table).toBeLessThanOrEqual(right.width);
    expect(right.scroll).toBeLessThanOrEqual(0);
    // Each cell, as a card, still says what it is.
    const labels = await table.locator('tbody').getByRole('row').filter({ hasText: 'Refused' }).first().evaluate((row) => [...row.querySelectorAll('td')].map((cell) => (globalThis as unknown as PageGlobals).getComputedStyle(cell, '::before').content));
    expect(labels.slice(0, 4)).toEqual(['"When"', '"HTTP"', '"Accepted / refused"', '"Run"']);
    await page.screenshot({ path: path.join(artifacts, 'webhook-deliveries-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);
});
