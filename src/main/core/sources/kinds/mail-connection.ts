// One IMAP connection for the mail source: the host checked against the address rules and the
// checked address dialled (the name kept for TLS), the password from the secrets, imapflow's own
// logging off (it would see the password), and what goes wrong said in the server's words.
import { ImapFlow } from 'imapflow';
import type { MailTrigger } from '../../../../shared/contract';
import { parseAddress } from '../../../../shared/addresses';
import type { SourceContext } from '../source-kind';

export type MailTools = Pick<SourceContext<MailTrigger>, 'secret' | 'reach' | 'signal'>;

/** What the IMAP server or the network said, as one sentence for the source's health. */
export function mailProblem(config: Pick<MailTrigger, 'host' | 'port' | 'user'>, error: unknown): string {
  const where = `${config.host}:${config.port}`;
  if (!(error instanceof Error)) return `${where}: ${String(error)}`;
  const found = error as Error & { responseText?: string; serverResponseCode?: string; authenticationFailed?: boolean; code?: string };
  const said = found.responseText ? `${found.serverResponseCode ? `[${found.serverResponseCode}] ` : ''}${found.responseText}` : undefined;
  if (found.authenticationFailed) return `${where} refused the login of ${config.user}: ${said ?? found.message}`;
  if (said) return `${where} answered: ${said}`;
  if (found.code === 'ERR_SSL_WRONG_VERSION_NUMBER') return `${where} did not answer TLS (is it plain IMAP? set tls to false, or use port 993)`;
  return `${where}: ${found.message}`;
}

export interface MailConnection {
  client: ImapFlow;
  /**
   * Calls `listener` when the connection ends without being asked to (the server closed it, the
   * network failed, `fail` was called); at once when it already has. Returns its removal.
   */
  whenLost(listener: (error: Error) => void): () => void;
  /** Ends the connection as lost, with this error. */
  fail(error: Error): void;
  /** Logs out (briefly) and closes; never throws. */
  close(): Promise<void>;
}

const logoutWaitMs = 2000;

/** Connects and logs in; throws an Error in the server's words. The caller closes it. */
export async function openMailConnection(config: MailTrigger, tools: MailTools): Promise<MailConnection> {
  const pass = tools.secret(config.password);
  const address = await tools.reach(config.host, config.port, { host: config.host, port: config.port });
  const named = parseAddress(config.host) === undefined;
  const client = new ImapFlow({
    host: address,
    port: config.port,
    secure: config.tls,
    // TLS checks the certificate against the name the user wrote, not the address dialled.
    ...(named ? { servername: config.host, tls: { servername: config.host } } : {}),
    auth: { user: config.user, pass },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 30_000,
    greetingTimeout: 16_000,
  });
  let closing = false;
  let lostWith: Error | undefined;
  const listeners = new Set<(error: Error) => void>();
  const fail = (error: Error) => {
    if (lostWith) return;
    lostWith = error;
    for (const listener of listeners) listener(error);
    listeners.clear();
  };
  const whenLost = (listener: (error: Error) => void) => {
    if (lostWith) listener(lostWith);
    else listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  // An 'error' without a listener would throw out of the event emitter and end Steward.
  client.on('error', (error: Error) => {
    if (!closing) fail(new Error(mailProblem(config, error)));
  });
  client.on('close', () => {
    if (!closing) fail(new Error(`${config.host}:${config.port} closed the connection${client.byeReason ? `: ${client.byeReason}` : ''}`));
  });
  const close = async () => {
    if (closing) return;
    closing = true;
    if (client.usable) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([client.logout().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, logoutWaitMs)))]);
      clearTimeout(timer);
    }
    client.close();
  };
  const onAbort = () => void close();
  tools.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await client.connect();
  } catch (error) {
    await close();
    throw new Error(tools.signal.aborted ? 'stopped while connecting' : mailProblem(config, error), { cause: error });
  } finally {
    tools.signal.removeEventListener('abort', onAbort);
  }
  return {
    client,
    whenLost,
    fail(error) {
      fail(error);
      client.close();
    },
    close,
  };
}

/** The mailbox opened (selected), or an Error saying it is not there. */
export async function openMailbox(connection: MailConnection, config: MailTrigger, readOnly = false) {
  try {
    return await connection.client.mailboxOpen(config.mailbox, { readOnly });
  } catch (error) {
    throw new Error(`Could not open the mailbox "${config.mailbox}": ${mailProblem(config, error)}`, { cause: error });
  }
}
