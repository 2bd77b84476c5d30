// The data folder a command that opens it directly (`keys`, `login-link`) may use. Where no flag
// or STEWARD_DATA_DIR chose it and the default folder holds no Steward yet, the command refuses
// instead of making a new one: a key made there belongs to no running Steward, which refuses it.
// It names the folder it would have used and, when a Steward answers on the port, says that one
// serves another folder and where to read which (`steward serve` prints it; Settings shows it).
import fs from 'node:fs';
import path from 'node:path';
import { daemonAnswers } from './daemon-answers';

export class NoDataDirError extends Error {}

export async function checkDataDir(dataDir: string, chosen: boolean, port: number): Promise<void> {
  if (chosen || fs.existsSync(path.join(dataDir, 'steward.db'))) return;
  const baseUrl = `http://127.0.0.1:${port}`;
  const where = 'Give its data folder with --data-dir DIR (or STEWARD_DATA_DIR): `steward serve` prints it as "Data folder:", and the app shows it in Settings, "This Steward".';
  const running = await daemonAnswers(baseUrl);
  throw new NoDataDirError(
    running
      ? `The Steward answering on ${baseUrl} does not serve ${dataDir}, the default data folder, which holds no Steward: a key made there would be refused by it. ${where}`
      : `No Steward uses ${dataDir}, the default data folder, yet: nothing would be made there. Start Steward first (\`steward serve\` or the app), or ${where.charAt(0).toLowerCase()}${where.slice(1)}`,
  );
}
