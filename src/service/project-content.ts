// Where the content root of a project without a repository (its pages, docs.json and snippets
// written through the API) is kept. Every reader and writer works on the node's own copy in the
// data dir (project-files.ts) and says so here first: with the JSON file that copy is the only
// one and these calls do nothing; with PostgreSQL (postgres/content.ts) the database holds the
// project's files, a write is acknowledged once it is stored there, and any node brings its copy
// up to date before reading it (docs/decisions.md#content-written-through-the-api-on-several-nodes).
// A project connected to a repository gets its content root from each sync instead: callers ask
// here only for projects without one.

export interface ProjectContent {
  /** Brings this node's copy of the project's content root up to date. */
  pull(projectId: string): Promise<void>;
  /** pull(), then `work` while no pull or change of the project runs on this node (a build's snapshot). */
  read<T>(projectId: string, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` on this node's up-to-date copy, changes of the project taking turns on every node;
   * `work` calls `touched` with the absolute path of each file it wrote or removed. Resolves once
   * those files are stored as they now are, so an answer never acknowledges a write another node
   * could miss.
   */
  change<T>(projectId: string, work: (touched: (abs: string) => void) => Promise<T>): Promise<T>;
  /**
   * Forgets what is stored of the project's content root: it was just connected to a repository,
   * whose syncs write that root from now on. After a disconnect, its first change stores the
   * node's copy (the synced files) anew, instead of the files written before the connection.
   */
  reset(projectId: string): Promise<void>;
}

/** The JSON file's: the data dir is the only copy. */
export const localContent: ProjectContent = {
  async pull() {},
  read: (_projectId, work) => work(),
  change: (_projectId, work) => work(() => {}),
  async reset() {},
};
