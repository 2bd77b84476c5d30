// Which hosts name the machine itself: localhost and 127.0.0.0/8, ::1, the unspecified addresses.
// A sandbox reaches them only by host and port (the core's rules, and the UI's "Allow" fix).

export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || bare === '::' || bare === '0.0.0.0') return true;
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
