/** The harness's errors: a stack that did not start, and a snapshot that cannot be reverted to. */

/** `shadebox up` exited, printed something unexpected, or was not ready in time. */
export class StackStartError extends Error {
  override readonly name = 'StackStartError';
}

/** `revert(id)` with an id never taken, or deleted by a revert to an earlier snapshot. */
export class UnknownSnapshotError extends Error {
  override readonly name = 'UnknownSnapshotError';
  constructor(readonly snapshotId: string) {
    super(`snapshot ${snapshotId} does not exist (never taken, or deleted by a revert to an earlier one)`);
  }
}
