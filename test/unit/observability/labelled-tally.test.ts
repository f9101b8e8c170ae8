import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LabelledTally } from '../../../src/observability/labelled-tally';
import { parsePrometheusText, valueOf } from '../../support/prometheus-text';

const scrape = async (registry: Registry) => parsePrometheusText(await registry.metrics());

function histogram() {
  const registry = new Registry();
  const tally = new LabelledTally(['operation'], [0.01, 0.1]);
  tally.register(registry, { name: 'call_seconds', help: 'calls', type: 'histogram' });
  return { registry, tally };
}

describe('LabelledTally', () => {
  it('writes a histogram as prom-client does: cumulative buckets, +Inf, sum and count per label set', async () => {
    const { registry, tally } = histogram();
    for (const seconds of [0.005, 0.05, 0.5]) tally.observe(tally.at('get'), seconds);
    tally.observe(tally.at('set'), 0.01);

    const { samples, types } = await scrape(registry);

    expect(types.get('call_seconds')).toBe('histogram');
    expect(valueOf(samples, 'call_seconds_bucket', { operation: 'get', le: '0.01' })).toBe(1);
    expect(valueOf(samples, 'call_seconds_bucket', { operation: 'get', le: '0.1' })).toBe(2);
    expect(valueOf(samples, 'call_seconds_bucket', { operation: 'get', le: '+Inf' })).toBe(3);
    expect(valueOf(samples, 'call_seconds_sum', { operation: 'get' })).toBeCloseTo(0.555, 9);
    expect(valueOf(samples, 'call_seconds_count', { operation: 'get' })).toBe(3);
    // A value on a bound falls in that bound's bucket (le: less than or equal).
    expect(valueOf(samples, 'call_seconds_bucket', { operation: 'set', le: '0.01' })).toBe(1);
  });

  it('exports one tally as a counter of its observations too', async () => {
    const { registry, tally } = histogram();
    tally.register(registry, { name: 'calls_total', help: 'calls', type: 'counter' });
    tally.observe(tally.at('get'), 0.5);
    tally.observe(tally.at('get'), 0.5);

    expect(valueOf((await scrape(registry)).samples, 'calls_total', { operation: 'get' })).toBe(2);
  });

  it('keeps the label sets apart by every label, in the order the labels were named', async () => {
    const registry = new Registry();
    const tally = new LabelledTally(['type', 'outcome']);
    tally.register(registry, { name: 'commands_total', help: 'commands', type: 'counter' });
    tally.add(tally.at('vote', 'ok'));
    tally.add(tally.at('vote', 'refused'), 2);

    const { samples } = await scrape(registry);

    expect(valueOf(samples, 'commands_total', { type: 'vote', outcome: 'ok' })).toBe(1);
    expect(valueOf(samples, 'commands_total', { type: 'vote', outcome: 'refused' })).toBe(2);
  });

  it("gives the JSON form every label on the value, and zeroes on the registry's reset", async () => {
    const { registry, tally } = histogram();
    tally.observe(tally.at('get'), 0.05);

    const [metric] = await registry.getMetricsAsJSON();
    expect(metric.values).toContainEqual(expect.objectContaining({ metricName: 'call_seconds_bucket', labels: { operation: 'get', le: '0.1' }, value: 1 }));

    registry.resetMetrics();
    expect(valueOf((await scrape(registry)).samples, 'call_seconds_count', { operation: 'get' })).toBe(0);
  });
});
