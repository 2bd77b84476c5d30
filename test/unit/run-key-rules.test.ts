// The pure rules behind a run's reach and an agent's environment: which target is at least as
// confined as a sender (src/shared/confinement.ts), every operation that declares a reach for a
// run's key being one run-key-reach.ts knows how to check, and which of Steward's variables an
// agent gets (agents/agent-environment.ts).
import { describe, expect, it } from 'vitest';
import { agentEnvironment } from '../../src/main/core/agents/agent-environment';
import { buildOpenApiDocument } from '../../src/main/core/http/openapi';
import { unconfined } from '../../src/main/core/run-key-reach';
import { type Permissions, type SandboxConfig, SandboxConfig as SandboxSchema, operations } from '../../src/shared/contract';
import { lessConfinedBy } from '../../src/shared/confinement';

const sandbox = (fields: Partial<SandboxConfig> = {}): SandboxConfig => SandboxSchema.parse({ mode: 'sandbox', ...fields });
const confined = (fields: Partial<SandboxConfig> = {}, mode: Permissions['mode'] = 'bypass') => ({ sandbox: sandbox(fields), permissions: { mode } });

describe('at least as confined', () => {
  it('holds for the same sandbox, and for a narrower one', () => {
    expect(lessConfinedBy(confined(), confined())).toBeUndefined();
    expect(lessConfinedBy(confined({ network: ['api.github.com'] }), confined({ network: ['*.github.com'] }))).toBeUndefined();
    expect(lessConfinedBy(confined({ network: ['*.api.github.com'] }), confined({ network: ['*.github.com'] }))).toBeUndefined();
    expect(lessConfinedBy(confined({ network: ['example.com'] }), confined({ network: ['*'] }))).toBeUndefined();
    expect(lessConfinedBy(confined({ network: ['127.0.0.1:8080'] }), confined({ network: ['127.0.0.1:8080'] }))).toBeUndefined();
    expect(lessConfinedBy(confined({ writeAllow: ['~/notes/today'] }), confined({ writeAllow: ['~/notes'] }))).toBeUndefined();
    expect(lessConfinedBy(confined({ readDeny: ['~/private', '~/more'] }), confined({ readDeny: ['~/private/keys'] }))).toBeUndefined();
    expect(lessConfinedBy(confined({}, 'ask'), confined({}, 'bypass'))).toBeUndefined();
  });

  it('fails for an off target, a wider network, path or environment, and one that acts without asking', () => {
    expect(lessConfinedBy({ ...confined(), sandbox: sandbox({ mode: 'off' }) }, confined())).toBe('it is not sandboxed, and the sender is');
    expect(lessConfinedBy(confined({ network: ['collector.example'] }), confined())).toBe('it may reach collector.example, and the sender may not');
    // A wildcard covers subdomains only; `*` covers no port (a loopback port only by itself).
    expect(lessConfinedBy(confined({ network: ['github.com'] }), confined({ network: ['*.github.com'] }))).toMatch(/may reach github\.com/);
    expect(lessConfinedBy(confined({ network: ['127.0.0.1:7321'] }), confined({ network: ['*'] }))).toMatch(/may reach 127\.0\.0\.1:7321/);
    expect(lessConfinedBy(confined({ network: ['[::1]:8080'] }), confined({ network: ['*'] }))).toMatch(/may reach \[::1\]:8080/);
    expect(lessConfinedBy(confined({ writeAllow: ['~/notes/../.ssh'] }), confined({ writeAllow: ['~/notes'] }))).toBe('it may write ~/notes/../.ssh, and the sender may not');
    expect(lessConfinedBy(confined({ writeAllow: ['~/notesplus'] }), confined({ writeAllow: ['~/notes'] }))).toMatch(/may write/);
    expect(lessConfinedBy(confined({ readDeny: [] }), confined({ readDeny: ['~/private'] }))).toBe('it may read ~/private, which the sender may not');
    expect(lessConfinedBy(confined({ envAllow: ['GITHUB_TOKEN'] }), confined())).toBe("it gets GITHUB_TOKEN from Steward's environment, and the sender does not");
    expect(lessConfinedBy(confined({}, 'bypass'), confined({}, 'ask'))).toBe('it acts without asking a person, and the sender asks');
  });

  it('holds for any target of a sender that is off: it is confined by nothing', () => {
    expect(lessConfinedBy({ ...confined(), sandbox: sandbox({ mode: 'off' }) }, { ...confined(), sandbox: sandbox({ mode: 'off' }) })).toBeUndefined();
    expect(lessConfinedBy(confined({ network: ['*'], envAllow: ['AWS_SECRET_ACCESS_KEY'] }), { ...confined(), sandbox: sandbox({ mode: 'off' }) })).toBeUndefined();
  });

  it('compares a sandbox setting it does not know by equality, so that a new one is never a way around it', () => {
    const withLimits = (memory: number) => ({ sandbox: { ...sandbox(), limits: { processes: 512, memoryMb: memory, tmpMb: 1024 } } as SandboxConfig, permissions: { mode: 'bypass' as const } });
    expect(lessConfinedBy(withLimits(4096), withLimits(4096))).toBeUndefined();
    expect(lessConfinedBy(withLimits(8192), withLimits(4096))).toBe("its sandbox's limits differs from the sender's");
  });
});

describe("a run's key", () => {
  it('is checked for every operation that declares a reach for it', () => {
    expect(unconfined).toEqual([]);
    const declared = Object.values(operations).filter((operation) => 'runKey' in operation && operation.runKey !== undefined);
    expect(declared.length).toBeGreaterThan(25);
  });

  it("shows each operation's reach in the OpenAPI document", () => {
    const paths = buildOpenApiDocument('test').paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(paths['/api/runs'].post['x-steward-run-key']).toBe('prompts');
    expect(paths['/api/automations/{id}'].put['x-steward-run-key']).toBe('own');
    expect(paths['/api/runs/outcome'].post['x-steward-run-key']).toBe('self');
    expect(paths['/api/system'].get['x-steward-run-key']).toBe('refused');
    expect(paths['/api/health'].get).not.toHaveProperty('x-steward-run-key');
  });
});

describe("an agent's environment", () => {
  const daemon = { PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', LC_TIME: 'en_GB.UTF-8', TZ: 'Europe/Berlin', HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'localhost', SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt', NGROK_AUTHTOKEN: 'ngrok', GITHUB_TOKEN: 'ghp', SSH_AUTH_SOCK: '/run/ssh', STEWARD_DATA_DIR: '/data' };

  it("takes the base list of Steward's variables, envAllow's, the preset's and the agent's, in that order", () => {
    const env = agentEnvironment({ preset: { GOOSE_MODE: 'auto', TZ: 'UTC' }, agent: { API_KEY: 'mine', GOOSE_MODE: 'chat' }, envAllow: ['GITHUB_TOKEN', 'NOT_SET'] }, daemon, 'linux');
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', LC_TIME: 'en_GB.UTF-8', TZ: 'UTC', HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'localhost', SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt', GITHUB_TOKEN: 'ghp', GOOSE_MODE: 'chat', API_KEY: 'mine' });
  });

  it('keeps what Windows needs to start a process, whatever the case of its names', () => {
    const env = agentEnvironment({ envAllow: ['github_token'] }, { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', USERPROFILE: 'C:\\Users\\me', GITHUB_TOKEN: 'ghp', NGROK_AUTHTOKEN: 'x' }, 'win32');
    expect(env).toEqual({ Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', USERPROFILE: 'C:\\Users\\me', GITHUB_TOKEN: 'ghp' });
  });

  it('refuses a pattern or a malformed name in envAllow', () => {
    expect(SandboxSchema.safeParse({ mode: 'off', envAllow: ['AWS_*'] }).success).toBe(false);
    expect(SandboxSchema.safeParse({ mode: 'off', envAllow: ['*'] }).success).toBe(false);
    expect(SandboxSchema.safeParse({ mode: 'off', envAllow: ['1ABC'] }).success).toBe(false);
    expect(SandboxSchema.parse({ mode: 'off', envAllow: [' NODE_EXTRA_CA_CERTS '] }).envAllow).toEqual(['NODE_EXTRA_CA_CERTS']);
  });
});
