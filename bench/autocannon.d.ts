declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    /** Per-second request counts; `total` is every request of the run. */
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    non2xx: number;
  }
  function autocannon(options: { url: string; connections?: number; duration?: number; method?: string; headers?: Record<string, string>; body?: string }): Promise<Result>;
  export default autocannon;
}
