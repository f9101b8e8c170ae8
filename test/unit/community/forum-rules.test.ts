import { describe, expect, it } from 'vitest';
import { canSeeThread, mustQueue, postChangeProblem, replyProblem, threadStartProblem } from '../../../src/domain/community/forum-rules';

const user = { id: 1, isAdmin: false };
const other = { id: 2, isAdmin: false };
const admin = { id: 9, isAdmin: true };
const open = { authorId: 1, locked: false, hidden: false, pending: false, deleted: false };
const post = { authorId: 1, deleted: false, pending: false };

describe('forum rules', () => {
  it('show a hidden thread to admins only', () => {
    expect(canSeeThread({ ...open, hidden: true }, other)).toBe(false);
    expect(canSeeThread({ ...open, hidden: true }, null)).toBe(false);
    expect(canSeeThread({ ...open, hidden: true }, admin)).toBe(true);
  });

  it('show a queued thread to its author and admins only', () => {
    expect(canSeeThread({ ...open, pending: true }, user)).toBe(true);
    expect(canSeeThread({ ...open, pending: true }, other)).toBe(false);
    expect(canSeeThread({ ...open, pending: true }, admin)).toBe(true);
  });

  it('refuse a reply in a locked thread with a conflict, except from an admin', () => {
    expect(replyProblem({ ...open, locked: true }, other)?.kind).toBe('conflict');
    expect(replyProblem({ ...open, locked: true }, admin)).toBeNull();
  });

  it('refuse a reply in a thread still queued, even from its author', () => {
    expect(replyProblem({ ...open, pending: true }, user)?.kind).toBe('not_found');
  });

  it('refuse a thread in an admin-only category to a user', () => {
    expect(threadStartProblem({ adminOnlyPosting: true }, user)?.kind).toBe('forbidden');
    expect(threadStartProblem({ adminOnlyPosting: true }, admin)).toBeNull();
  });

  it('let the author or an admin change a post, nobody else', () => {
    expect(postChangeProblem(post, open, user)).toBeNull();
    expect(postChangeProblem(post, open, admin)).toBeNull();
    expect(postChangeProblem(post, open, other)?.kind).toBe('forbidden');
  });

  it('treat a deleted post as gone', () => {
    expect(postChangeProblem({ ...post, deleted: true }, open, admin)?.kind).toBe('not_found');
  });

  it("queue a user's first N posts and never an admin's", () => {
    expect(mustQueue(0, 2, user)).toBe(true);
    expect(mustQueue(1, 2, user)).toBe(true);
    expect(mustQueue(2, 2, user)).toBe(false);
    expect(mustQueue(0, 2, admin)).toBe(false);
    expect(mustQueue(0, 0, user)).toBe(false);
  });
});
