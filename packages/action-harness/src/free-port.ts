/**
 * A local TCP port that is free now, for a program a test starts that must be told its port
 * (Sauce Connect's status server). Not one the system hands out for port 0: those come from the
 * ephemeral range, which every outgoing connection of the tests running beside this one also
 * takes its source port from, so such a port is often taken again before the program binds it.
 */
import net from 'node:net';

/** Below the ephemeral ranges of Linux (32768–60999), macOS and Windows (49152–65535). */
const LOWEST = 20_000;
const HIGHEST = 32_767;
const TRIES = 50;

export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let tried = 0; tried < TRIES; tried++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (await canListen(host, port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST} on ${host} after ${TRIES} tries`);
}

function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
