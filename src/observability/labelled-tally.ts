import type { Registry } from 'prom-client';

/** One label set's counts: observations per bucket (not cumulative, the last one past every bound), their sum and number. */
export interface Tally {
  readonly labels: Readonly<Record<string, string>>;
  readonly perBucket: Float64Array;
  sum: number;
  count: number;
}

/** A value as prom-client's registry writes it (see its Registry.getMetricsAsString). */
interface ExportedValue {
  labels: Record<string, string>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName?: string;
}

interface Exported {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: ExportedValue[];
  aggregator: 'sum';
}

export interface TallyExport {
  name: string;
  help: string;
  /** A counter exports each label set's number of observations; a histogram its buckets, sum and count. */
  type: 'counter' | 'histogram';
}

/**
 * Counts by up to three labels, kept in plain numbers and written out by prom-client's registry at
 * scrape time, for the series every request and every lobby command adds to. prom-client's own
 * Counter and Histogram build a string key from the label object and find the bucket by a
 * property named after the bound, on every call: about 1 µs each, four times per lobby command.
 * Here a call is a lookup in nested maps and a few additions. One tally may be exported under
 * several names (the request counter and the request histogram count the same requests).
 */
export class LabelledTally {
  readonly #tallies = new Map<string, Map<string, Map<string, Tally>>>();
  readonly #all: Tally[] = [];

  constructor(
    private readonly labelNames: readonly string[],
    private readonly bounds: readonly number[] = [],
  ) {
    if (labelNames.length > 3) throw new Error('a tally takes at most three labels');
  }

  /** The tally of one label set, its values in `labelNames` order. */
  at(a = '', b = '', c = ''): Tally {
    let second = this.#tallies.get(a);
    if (!second) this.#tallies.set(a, (second = new Map()));
    let third = second.get(b);
    if (!third) second.set(b, (third = new Map()));
    let tally = third.get(c);
    if (!tally) {
      const values = [a, b, c];
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, i) => (labels[name] = values[i]));
      tally = { labels, perBucket: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      third.set(c, tally);
      this.#all.push(tally);
    }
    return tally;
  }

  /** One observation of `value` (seconds, for a histogram; anything for a counter). */
  observe(tally: Tally, value: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]) bucket++;
    tally.perBucket[bucket]++;
    tally.sum += value;
    tally.count++;
  }

  /** Adds `by` to a counter's tally (no bucket, no sum). */
  add(tally: Tally, by = 1): void {
    tally.count += by;
  }

  /** Registers this tally under `exported` in the registry (as prom-client's metrics register themselves). */
  register(registry: Registry, exported: TallyExport): void {
    const read = (): Exported => ({ ...exported, values: exported.type === 'counter' ? this.#counted() : this.#histogram(exported.name), aggregator: 'sum' });
    registry.registerMetric({
      ...exported,
      aggregator: 'sum',
      getForPromString: async () => read(),
      // The JSON form has every label on the value itself, as prom-client's own metrics give it.
      get: async () => {
        const data = read();
        return { ...data, values: data.values.map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...sharedLabels, ...labels } })) };
      },
      reset: () => {
        for (const tally of this.#all) {
          tally.perBucket.fill(0);
          tally.sum = 0;
          tally.count = 0;
        }
      },
    } as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  #counted(): ExportedValue[] {
    return this.#all.map((tally) => ({ labels: { ...tally.labels }, value: tally.count }));
  }

  #histogram(name: string): ExportedValue[] {
    const values: ExportedValue[] = [];
    for (const tally of this.#all) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += tally.perBucket[i];
        values.push({ labels: { le: String(bound) }, sharedLabels: tally.labels, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: tally.labels, value: tally.count, metricName: `${name}_bucket` },
        { labels: {}, sharedLabels: tally.labels, value: tally.sum, metricName: `${name}_sum` },
        { labels: {}, sharedLabels: tally.labels, value: tally.count, metricName: `${name}_count` },
      );
    }
    return values;
  }
}
