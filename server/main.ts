/**
 * `npm run classroom [-- --port N] [--host H] [--journal FILE] [--allow-origin URL]...`: serves
 * the built app and the live classroom on the local network, prints the address students join
 * and shows it as a QR code. Builds the app first when there is no build yet. The port also comes
 * from `PORT`; the default is 8080.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { renderUnicodeCompact } from 'uqr';
import { parseArgs } from './args.ts';
import { startServer } from './server.ts';

/** The machine's LAN addresses (IPv4, not loopback), which students' devices can reach. */
function lanAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) out.push(a.address);
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), process.env);
  if (typeof args === 'string') {
    console.error(`classroom: ${args}`);
    process.exit(2);
  }
  const dist = resolve('dist');
  if (!args.socketOnly && !existsSync(resolve(dist, 'index.html'))) {
    console.log('classroom: no build of the app yet; building it (npx vite build)…');
    const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
    if (build.status !== 0) {
      console.error('classroom: the build failed (see above); fix it and run npm run classroom again');
      process.exit(1);
    }
  }
  let server;
  try {
    server = await startServer({ ...(args.socketOnly ? {} : { dist }), port: args.port, host: args.host, journal: args.journal, allowedOrigins: args.allowOrigins, fsync: args.fsync });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    console.error(
      code === 'EADDRINUSE'
        ? `classroom: port ${args.port} is in use; choose another with --port N`
        : `classroom: could not start: ${(e as Error).message}`,
    );
    process.exit(1);
  }
  // Bound to one address (e.g. 127.0.0.1 for a test): that is where students can reach it.
  const hosts = args.host === '0.0.0.0' || args.host === '::' ? lanAddresses() : [args.host];
  const join = `http://${hosts[0] ?? 'localhost'}:${server.port}/live`;
  console.log(`\nWarpscope live classroom on port ${server.port}${server.replayed > 0 ? ` (restored ${server.replayed} events from ${args.journal})` : ''}`);
  if (args.socketOnly) console.log('  Serving the classroom socket only (--socket-only): open the app from its own host.');
  else console.log(`  Teacher: open a lesson's presenter view at http://localhost:${server.port}/lessons and press “Start a live class”.`);
  console.log(`  Students join at: ${join}`);
  for (const h of hosts.slice(1)) console.log(`           or at:  http://${h}:${server.port}/live`);
  console.log(`\n${renderUnicodeCompact(join, { ecc: 'M', border: 1 })}\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
