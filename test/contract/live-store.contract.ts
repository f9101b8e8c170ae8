import { afterEach, beforeEach, describe } from 'vitest';
import type { LiveStore } from '../../src/live/live-store';
import { commitRules } from './contract-commit';
import { concurrencyRules } from './contract-concurrency';
import { documentRules } from './contract-documents';
import { expiryRules } from './contract-expiry';
import { messagingRules } from './contract-messaging';
import { numberedRules } from './contract-numbered';
import { orderedRules } from './contract-ordered';
import { publishRules } from './contract-publish';
import type { LiveStoreContractOptions, LiveStoreHarness, MakeLiveStore } from './live-store-harness';

export type { LiveStoreContractOptions, LiveStoreHarness, MakeLiveStore } from './live-store-harness';

/** The rules of `src/live/live-store.ts`, one suite that every implementation must pass. */
export function describeLiveStoreContract(name: string, makeStore: MakeLiveStore, options: LiveStoreContractOptions): void {
  describe(name, () => {
    let harness: LiveStoreHarness | undefined;
    let opened: LiveStore[] = [];

    beforeEach(async () => {
      const made = await makeStore();
      opened = [made.store];
      const openPeer = made.openPeer;
      harness = {
        ...made,
        openPeer: openPeer
          ? async () => {
              const peer = await openPeer();
              opened.push(peer);
              return peer;
            }
          : undefined,
      };
    });

    afterEach(async () => {
      await Promise.all(opened.map((store) => store.close()));
      opened = [];
      harness = undefined;
    });

    const current = (): LiveStoreHarness => {
      if (!harness) throw new Error('the store under test is only available inside a test');
      return harness;
    };

    documentRules(current);
    commitRules(current);
    expiryRules(current);
    messagingRules(current, options);
    orderedRules(current);
    numberedRules(current, options);
    publishRules(current, options);
    concurrencyRules(current, options);
  });
}
