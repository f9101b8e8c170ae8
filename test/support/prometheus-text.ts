/** One sample line of the Prometheus text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`;
/** Go's ParseFloat, which Prometheus reads values with, takes NaN and Inf in any letter case (prom-client writes `Nan`). */
const VALUE = '([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?|[Nn][Aa][Nn]|[+-][Ii][Nn][Ff])';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL}(?:,${LABEL})*)?,?)\\})? ${VALUE}(?: -?\\d+)?$`);
const HELP = new RegExp(`^# HELP (${NAME}) .*$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const ONE_LABEL = new RegExp(LABEL, 'g');

/**
 * A strict reader of the text exposition format (version 0.0.4), which prom-client writes but
 * cannot read: every line must be a HELP, a TYPE or a sample, or the parse throws naming the
 * line, so a malformed exposition fails the test instead of being half read.
 */
export function parsePrometheusText(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  text.split('\n').forEach((line, index) => {
    if (line === '') return;
    const type = TYPE.exec(line);
    if (type) {
      if (types.has(type[1])) throw new Error(`line ${index + 1}: second TYPE for ${type[1]}`);
      types.set(type[1], type[2]);
      return;
    }
    if (HELP.test(line)) return;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`line ${index + 1} is not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, raw] of (sample[2] ?? '').matchAll(ONE_LABEL)) {
      if (name in labels) throw new Error(`line ${index + 1}: label ${name} twice`);
      labels[name] = raw.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    const rawValue = sample[sample.length - 1];
    const special = rawValue.toLowerCase();
    const value = special === 'nan' ? NaN : special === '+inf' ? Infinity : special === '-inf' ? -Infinity : Number(rawValue);
    samples.push({ name: sample[1], labels, value });
  });
  return { samples, types };
}

/** The samples of one metric name whose labels include every given label. */
export function samplesOf(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The sum of the matching samples' values (0 when none). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samplesOf(samples, name, labels).reduce((sum, s) => sum + s.value, 0);
}

/** Every distinct value one label takes across a metric's samples. */
export function labelValues(samples: Sample[], name: string, label: string): Set<string> {
  return new Set(samplesOf(samples, name).map((s) => s.labels[label]).filter((v): v is string => v !== undefined));
}
