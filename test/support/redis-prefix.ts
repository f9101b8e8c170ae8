import { createClient } from 'redis';

/**
 * Deletes every key under `prefix`: what a test run or benchmark wrote, and nothing else. The
 * Redis may be shared (CI, other runs), so never FLUSHALL.
 */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    await client.close();
  }
}
