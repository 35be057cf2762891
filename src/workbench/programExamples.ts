/**
 * The posts' complete programs (`src/cuda/host/seeds`), grouped by post, each loaded on demand
 * (a chunk per file), with the local header `error.cuh` that 002-topk includes.
 */
const sources = import.meta.glob<string>('../cuda/host/seeds/*.{cu,cuh}', { query: '?raw', import: 'default' });

export interface Example {
  readonly id: string;
  readonly post: string;
}

/** The seed files by post, in the posts' order (post 001 prints no complete program). */
export const EXAMPLES: readonly Example[] = Object.keys(sources)
  .map((path) => path.replace(/^.*\//, ''))
  .filter((name) => name.endsWith('.cu'))
  .map((name) => name.replace(/\.cu$/, ''))
  .sort()
  .map((id) => ({ id, post: id.slice(0, 3) }));

export const POSTS: readonly string[] = [...new Set(EXAMPLES.map((e) => e.post))];


/** An example's source and the headers it may include. */
export async function loadExample(id: string): Promise<{ source: string; files: Record<string, string> }> {
  const load = sources[`../cuda/host/seeds/${id}.cu`];
  if (!load) throw new Error(`no example named ${id}`);
  const header = sources['../cuda/host/seeds/error.cuh'];
  const [source, cuh] = await Promise.all([load(), header ? header() : Promise.resolve(undefined)]);
  return { source, files: cuh === undefined ? {} : { 'error.cuh': cuh } };
}
