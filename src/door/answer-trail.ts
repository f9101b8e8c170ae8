/**
 * What the credential step leaves on the answer without seeing it: headers to add (a renewed
 * session cookie) and work to do once the final status is known (the key audit row).
 */
export class AnswerTrail {
  readonly headers: Record<string, string> = {};
  #listeners: Array<(status: number) => void> = [];
  #status: number | null = null;

  setHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  onAnswered(listener: (status: number) => void): void {
    if (this.#status !== null) listener(this.#status);
    else this.#listeners.push(listener);
  }

  /** Called once by the exchange with the status the client got; later calls are ignored. */
  answered(status: number): void {
    if (this.#status !== null) return;
    this.#status = status;
    for (const listener of this.#listeners.splice(0)) listener(status);
  }
}
