import { describe, expect, it } from 'vitest';
import { MemoryLiveStore } from '../../../src/live/memory-live-store';
import { Metrics } from '../../../src/observability/metrics';
import { observedLiveStore } from '../../../src/observability/observed-live-store';
import { labelValues, parsePrometheusText, samplesOf, valueOf } from '../../support/prometheus-text';

const scrape = async (metrics: Metrics) => parsePrometheusText(await metrics.text()).samples;

describe('Metrics', () => {
  it('observeRequest counts a request and puts its duration in the histogram under the route template', async () => {
    const metrics = new Metrics({ processDefaults: false });
    metrics.observeRequest({ method: 'get', route: '/api/lobbies/:code', status: 200, durationMs: 12 });
    metrics.observeRequest({ method: 'GET', route: '/api/lobbies/:code', status: 200, durationMs: 30 });
    const samples = await scrape(metrics);
    const labels = { method: 'GET', route: '/api/lobbies/:code', status: '200' };
    expect(valueOf(samples, 'http_requests_total', labels)).toBe(2);
    expect(valueOf(samples, 'http_request_duration_seconds_count', labels)).toBe(2);
    expect(valueOf(samples, 'http_request_duration_seconds_sum', labels)).toBeCloseTo(0.042, 6);
    expect(valueOf(samples, 'http_request_duration_seconds_bucket', { ...labels, le: '0.025' })).toBe(1);
    expect(valueOf(samples, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(2);
  });

  it('observeRequest keeps the route label set bounded however many distinct routes it is given', async () => {
    const metrics = new Metrics({ processDefaults: false, maxRoutes: 5 });
    for (let i = 0; i < 50; i++) metrics.observeRequest({ method: 'GET', route: `/api/raw/${i}`, status: 200, durationMs: 1 });
    const samples = await scrape(metrics);
    const routes = labelValues(samples, 'http_requests_total', 'route');
    expect(routes.size).toBe(6);
    expect(routes).toContain('other');
    expect(valueOf(samples, 'http_requests_total', { route: 'other' })).toBe(45);
  });

  it('observeRequest maps unknown methods and impossible statuses to fixed labels', async () => {
    const metrics = new Metrics({ processDefaults: false });
    metrics.observeRequest({ method: 'BREW', route: '/x', status: 9999, durationMs: 1 });
    const [sample] = samplesOf(await scrape(metrics), 'http_requests_total');
    expect(sample.labels).toEqual({ method: 'OTHER', route: '/x', status: 'other' });
  });

  it('the outbox backlog is absent until a callback is set, then read at every scrape', async () => {
    const metrics = new Metrics({ processDefaults: false });
    expect(samplesOf(await scrape(metrics), 'notification_outbox_backlog')).toHaveLength(0);
    let backlog = 3;
    metrics.setOutboxBacklog(async () => backlog);
    expect(valueOf(await scrape(metrics), 'notification_outbox_backlog')).toBe(3);
    backlog = 7;
    expect(valueOf(await scrape(metrics), 'notification_outbox_backlog')).toBe(7);
  });

  it('database statements are labelled by their first keyword only', async () => {
    const metrics = new Metrics({ processDefaults: false });
    metrics.databaseQuery('select * from users where id = 42', 0.002, false);
    metrics.databaseQuery("insert into client_logs values ('secret')", 0.004, true);
    metrics.databaseQuery('vacuum client_logs', 0.1, false);
    const samples = await scrape(metrics);
    expect(labelValues(samples, 'db_query_duration_seconds_count', 'statement')).toEqual(new Set(['select', 'insert', 'other']));
    expect(valueOf(samples, 'db_query_errors_total', { statement: 'insert' })).toBe(1);
  });

  it('the process defaults and the event-loop lag are exported', async () => {
    const samples = await scrape(new Metrics());
    expect(samplesOf(samples, 'process_cpu_seconds_total')).toHaveLength(1);
    expect(samplesOf(samples, 'nodejs_eventloop_lag_p99_seconds')).toHaveLength(1);
  });

  it('the observed live store times each call by operation and counts the failures', async () => {
    const metrics = new Metrics({ processDefaults: false });
    const store = observedLiveStore(new MemoryLiveStore(), metrics);
    await store.increment('a');
    await store.increment('a');
    await store.close();
    await expect(store.get('a')).rejects.toThrow();
    const samples = await scrape(metrics);
    expect(valueOf(samples, 'live_store_call_duration_seconds_count', { operation: 'increment' })).toBe(2);
    expect(valueOf(samples, 'live_store_call_errors_total', { operation: 'get' })).toBe(1);
    expect(store.kind).toBe('memory');
  });
});
