declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    non2xx: number;
  }
  function autocannon(options: { url: string; connections?: number; duration?: number; method?: string; headers?: Record<string, string> }): Promise<Result>;
  export default autocannon;
}
