import { renderMarkdown } from '../community/render-markdown';
import { ForumWrites } from './community/forum-writes';
import type { Database } from './orm';

const CATEGORIES = [
  { slug: 'announcements', name: 'Announcements', description: 'News from the league admins', adminOnly: true },
  { slug: 'recruitment', name: 'Recruitment', description: 'Teams looking for players, players looking for teams', adminOnly: false },
  { slug: 'general', name: 'General', description: 'Everything else about the game and the league', adminOnly: false },
];

/** Demo threads: category slug, author (index into the demo players), title, and posts (author, markdown). */
const THREADS: { category: string; title: string; hoursAgo: number; pinned?: boolean; posts: [number, string][] }[] = [
  { category: 'announcements', title: 'Forum rules', hoursAgo: 100, pinned: true, posts: [[0, 'Be **civil**, stay on topic, and report spam with the *Report* button.']] },
  {
    category: 'recruitment', title: 'LF1M pocket soldier for Sunday scrims', hoursAgo: 30,
    posts: [[1, 'We scrim **Sundays 8pm CET**. Logs: https://logs.tf'], [4, 'I can play pocket, add me!'], [1, 'Sent you an invite.']],
  },
  {
    category: 'general', title: 'Best 6v6 maps this season?', hoursAgo: 12,
    posts: [[2, 'My list:\n\n1. cp_process_f12\n2. cp_gullywash_f9\n3. koth_product_final'], [7, '`cp_sunshine` deserves a spot too.']],
  },
];

/**
 * A few categories and threads for the demo league, written through the forum's own writes (the
 * markdown rendered and sanitised as a post would be). `authors` are the demo players' ids.
 */
export async function seedCommunity(db: Database, authors: number[], now: Date): Promise<void> {
  await db.em().transactional(async (em) => {
    const categoryIds = new Map<string, number>();
    for (const [position, c] of CATEGORIES.entries()) {
      const [{ id }] = await em.execute<{ id: number }[]>(
        'insert into community_categories (slug, name, description, position, admin_only_posting) values (?, ?, ?, ?, ?) returning id',
        [c.slug, c.name, c.description, position, c.adminOnly],
      );
      categoryIds.set(c.slug, id);
    }
    for (const thread of THREADS) {
      const start = new Date(now.getTime() - thread.hoursAgo * 3_600_000);
      const [firstAuthor] = thread.posts[0];
      const threadId = await ForumWrites.insertThread(em, { categoryId: categoryIds.get(thread.category)!, title: thread.title, authorId: authors[firstAuthor], pending: false, at: start });
      for (const [i, [author, body]] of thread.posts.entries()) {
        const at = new Date(start.getTime() + i * 1_800_000);
        await ForumWrites.insertPost(em, { threadId, authorId: authors[author], body, bodyHtml: renderMarkdown(body), pending: false, at });
      }
      if (thread.pinned) await ForumWrites.patchThread(em, threadId, { pinned: true });
    }
  });
}
