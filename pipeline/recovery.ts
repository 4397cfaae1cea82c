/** What the start's recovery of uploads did: uploads a crash left whole, completed or discarded, or left for later. */
export interface Recovery {
  completed: number;
  discarded: number;
  /** Left with their bytes for the next try (a full image queue, a disk error); a status query or chunk makes it. */
  deferred: number;
}
