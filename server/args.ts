/** The classroom server's command line: `--port N` (or `PORT`), `--host`, `--journal`, `--allow-origin`, `--fsync`, `--socket-only`. */
export interface Args {
  port: number;
  host: string;
  journal: string;
  allowOrigins: string[];
  fsync: boolean;
  /** Serve only the classroom socket and its health check, not the app (tests, a separate static host). */
  socketOnly: boolean;
}

export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Args | string {
  const args: Args = { port: 8080, host: '0.0.0.0', journal: '.classroom/journal.jsonl', allowOrigins: [], fsync: false, socketOnly: false };
  if (env.PORT !== undefined && env.PORT !== '') {
    const p = Number(env.PORT);
    if (!Number.isInteger(p) || p < 0 || p > 65535) return `PORT must be a port number from 0 to 65535, not “${env.PORT}”`;
    args.port = p;
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--port') {
        const v = value();
        const p = Number(v);
        if (!Number.isInteger(p) || p < 0 || p > 65535) return `--port takes a port number from 0 to 65535, not “${v}”`;
        args.port = p;
      } else if (a === '--host') args.host = value();
      else if (a === '--journal') args.journal = value();
      else if (a === '--allow-origin') args.allowOrigins.push(value());
      else if (a === '--fsync') args.fsync = true;
      else if (a === '--socket-only') args.socketOnly = true;
      else return `unknown option ${a}; the options are --port N, --host H, --journal FILE, --allow-origin URL, --fsync, --socket-only`;
    } catch (e) {
      return (e as Error).message;
    }
  }
  return args;
}

