/**
 * Runs a task now, or once more after the current run when asked again meanwhile: a burst of
 * requests costs at most two runs, and the last run always starts after the last request.
 */
export class Rerun {
  #running: Promise<void> | null = null;
  #again = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  run(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#loop();
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.task();
      } catch (error) {
        this.onError(error);
      }
    } while (this.#again);
    this.#running = null;
  }

  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }
}
