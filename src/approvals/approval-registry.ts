import type { ApprovalKind } from './approval-kind';

/** The kinds this server decides, registered once at start-up in the composition files. */
export class ApprovalRegistry {
  readonly #kinds = new Map<string, ApprovalKind<unknown>>();

  register<S>(kind: ApprovalKind<S>): void {
    if (this.#kinds.has(kind.kind)) throw new Error(`approval kind ${kind.kind} is registered twice`);
    this.#kinds.set(kind.kind, kind as ApprovalKind<unknown>);
  }

  get(kind: string): ApprovalKind<unknown> | undefined {
    return this.#kinds.get(kind);
  }

  kinds(): string[] {
    return [...this.#kinds.keys()];
  }
}
