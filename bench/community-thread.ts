import autocannon from 'autocannon';
import { seedDemo } from '../src/composition/demo-seed';
import { renderMarkdown } from '../src/community/render-markdown';
import { createTestDatabase } from '../test/support/test-database';
import { startBenchServer } from './bench-server';
import { cpuMs } from './http-client';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const POSTS = 10_000;
const PAGE = 50;

async function load(url: string, pid: number) {
  await autocannon({ url, connections: CONNECTIONS, duration: 1 });
  const before = cpuMs(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const cpuUs = ((cpuMs(pid) - before) * 1000) / result.requests.total;
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx, cpuUs };
}

/**
 * A forum thread of 10,000 posts: its first and its last page of 50 (GET
 * /api/community/threads/{id}?page=&limit=50, an express route reading Postgres on every request),
 * beside the cached public summary of the same server in the same run. Needs DATABASE_URL: the
 * thread is written straight into the server's database before it starts.
 */
export async function benchCommunityThread(): Promise<string[]> {
  if (!process.env.DATABASE_URL) return ['skipped: set DATABASE_URL (the thread of 10,000 posts is written into a database the server then opens)'];
  const database = await createTestDatabase();
  try {
    await seedDemo(database.db, new Date());
    const em = database.db.em();
    const [{ id: authorId }] = await em.execute<{ id: number }[]>('select min(id) as id from users');
    const [{ id: categoryId }] = await em.execute<{ id: number }[]>("select id from community_categories where slug = 'general'");
    const [{ id: threadId }] = await em.execute<{ id: number }[]>(
      `insert into community_threads (category_id, title, author_id, post_count) values (?, 'The 10,000-post thread', ?, ?) returning id`,
      [categoryId, authorId, POSTS],
    );
    const body = 'A reply with **bold**, a [link](https://example.org) and a list:\n\n- one\n- two';
    await em.execute(
      `insert into community_posts (thread_id, author_id, body, body_html, created_at)
       select ?, ?, ? || ' #' || n, ?, now() - (? - n) * interval '1 minute' from generate_series(1, ?) n`,
      [threadId, authorId, body, renderMarkdown(body), POSTS, POSTS],
    );
    await em.execute('analyze community_posts');
    const server = await startBenchServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: 'never' });
    try {
      const first = await load(`${server.url}/api/community/threads/${threadId}?page=1&limit=${PAGE}`, server.pid);
      const last = await load(`${server.url}/api/community/threads/${threadId}?page=${POSTS / PAGE}&limit=${PAGE}`, server.pid);
      const summary = await load(`${server.url}/api/public/summary`, server.pid);
      const line = (r: Awaited<ReturnType<typeof load>>) =>
        `${Math.round(r.rps).toLocaleString('en')} req/s, p99 ${r.p99} ms, errors ${r.errors}, server CPU ${r.cpuUs.toFixed(1)} us/request`;
      return [
        `forum thread of ${POSTS.toLocaleString('en')} posts, pages of ${PAGE}, ${CONNECTIONS} connections, ${SECONDS} s each (autocannon, sharing the two cores):`,
        `  first page:                 ${line(first)}`,
        `  last page (offset ${POSTS - PAGE}):   ${line(last)}`,
        `  cached public summary:      ${line(summary)}`,
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}
