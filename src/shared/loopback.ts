// Which hosts name the machine itself: a localhost name, a loopback or an unspecified address, in
// any spelling (`127.1`, `[::ffff:7f00:1]`, `0x7f.1`); parsed by addresses.ts, not matched as text.
// A sandbox reaches them only by host and port; a remote is plain http:// only there.
import { namesThisMachine } from './addresses';

export const isLoopback = (host: string): boolean => namesThisMachine(host);
