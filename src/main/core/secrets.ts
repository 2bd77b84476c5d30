// Secrets Steward must read back (DESIGN §3), such as a tunnel authtoken: sealed with AES-256-GCM
// under a key kept in the data folder with mode 0600. The desktop app will seal its key with
// Electron's safeStorage; headless, the key file is the protection, as with an ssh key.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const version = 'v1';

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

function loadKey(file: string): Buffer {
  try {
    const key = fs.readFileSync(file);
    if (key.length === 32) return key;
    throw new Error(`The secret key file ${file} is damaged (it must hold 32 bytes).`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  // wx: never overwrite a key another process wrote first.
  try {
    fs.writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadKey(file);
    throw error;
  }
  return key;
}

export function createSecretBox(dataDir: string): SecretBox {
  const file = path.join(dataDir, 'secret.key');
  let key: Buffer | undefined;
  const theKey = () => (key ??= loadKey(file));

  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', theKey(), iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${version}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
    },
    open(sealed) {
      const [tag, body] = sealed.split(':');
      if (tag !== version || !body) throw new Error('This secret was not sealed by Steward.');
      const bytes = Buffer.from(body, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', theKey(), bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('A stored secret cannot be opened: it was changed, or sealed with another key.');
      }
    },
  };
}
