import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Metrics } from '../../../src/observability/metrics';
import { parsePrometheusText } from '../../support/prometheus-text';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** Every metric family the server exposes, and the series names a histogram adds. */
async function exposedNames(): Promise<Set<string>> {
  const metrics = new Metrics();
  metrics.setOutboxBacklog(() => 0);
  const { types } = parsePrometheusText(await metrics.text());
  const names = new Set<string>(['up']);
  for (const [name, type] of types) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${name}${suffix}`);
  }
  return names;
}

describe('deploy files', () => {
  it('the Grafana dashboard is dashboard JSON whose every query names metrics the server exposes', async () => {
    const dashboard = JSON.parse(read('deploy/grafana/league-dashboard.json'));
    expect(dashboard).toMatchObject({ uid: 'league-server', schemaVersion: expect.any(Number) });
    const exposed = await exposedNames();
    const exprs: string[] = dashboard.panels.flatMap((panel: { targets: Array<{ expr: string }> }) => panel.targets.map((t) => t.expr));
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    const functions = new Set(['sum', 'by', 'rate', 'histogram_quantile', 'max', 'le', 'label_values']);
    for (const expr of exprs) {
      // Metric names are the identifiers followed by `{` (label matchers); everything else is PromQL.
      const used = [...expr.matchAll(/([a-z_:][a-z0-9_:]*)\{/gi)].map((m) => m[1]).filter((name) => !functions.has(name));
      expect(used.length, expr).toBeGreaterThan(0);
      for (const name of used) expect(exposed, `${name} in ${expr}`).toContain(name);
    }
  });

  it('Prometheus scrapes every replica of the app service of docker-compose with the metrics token', () => {
    const compose = parse(read('docker-compose.yml'));
    const apps = Object.keys(compose.services).filter((name) => /^app\d*$/.test(name));
    const config = parse(read('deploy/prometheus.yml'));
    const job = config.scrape_configs.find((c: { job_name: string }) => c.job_name === 'league');
    expect(job.dns_sd_configs[0]).toMatchObject({ names: apps, type: 'A', port: 8080 });
    expect(compose.services.app.environment.METRICS_TOKEN).toBeDefined();
    expect(job.authorization).toMatchObject({ type: 'Bearer' });
    expect(compose.services.prometheus.volumes).toContain('./deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
  });
});
