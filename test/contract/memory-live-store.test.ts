import { MemoryLiveStore } from '../../src/live/memory-live-store';
import { describeLiveStoreContract } from './live-store.contract';

describeLiveStoreContract(
  'MemoryLiveStore',
  async () => {
    let now = 1_700_000_000_000;
    const store = new MemoryLiveStore({ clock: () => now });
    return { store, clock: { advance: (ms: number) => void (now += ms) } };
  },
  { sharedAcrossInstances: false },
);
