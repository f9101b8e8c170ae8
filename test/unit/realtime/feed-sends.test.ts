import { describe, expect, it } from 'vitest';
import { newestSends, type FeedSend } from '../../../realtime/socket-broadcast';

/** A send that records its name when made. */
const sendOf = (name: string, supersededBy: string | null, made: string[]): FeedSend & { name: string } => ({
  name,
  supersededBy,
  send: () => made.push(name),
});

describe('the feed sends an instance keeps when it falls behind', () => {
  it('keeps only the newest update of each lobby, where it stood in the queue', () => {
    const made: string[] = [];
    const queue = [sendOf('AB v1', 'update:AB', made), sendOf('CD v1', 'update:CD', made), sendOf('AB v2', 'update:AB', made), sendOf('AB v3', 'update:AB', made)];
    for (const item of newestSends(queue)) item.send();
    expect(made).toEqual(['CD v1', 'AB v3']);
  });

  it('keeps every chat line, in order among the updates it keeps', () => {
    const made: string[] = [];
    const queue = [sendOf('AB v1', 'update:AB', made), sendOf('chat 1', null, made), sendOf('chat 2', null, made), sendOf('AB v2', 'update:AB', made)];
    for (const item of newestSends(queue)) item.send();
    expect(made).toEqual(['chat 1', 'chat 2', 'AB v2']);
  });

  it('keeps only the newest open lobby list', () => {
    const made: string[] = [];
    const queue = [sendOf('list 1', 'list', made), sendOf('AB v1', 'update:AB', made), sendOf('list 2', 'list', made)];
    for (const item of newestSends(queue)) item.send();
    expect(made).toEqual(['AB v1', 'list 2']);
  });
});
