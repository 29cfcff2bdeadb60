/**
 * The most calls one tRPC request may batch. The console's client (httpBatchLink maxItems) splits
 * bigger batches itself; the server refuses a request with more before any of its calls runs
 * (trpc/batch-limit.ts), so one small request cannot buy hundreds of procedure runs. A page's
 * first render batches a handful of queries; ten leaves room.
 */
export const MAX_TRPC_BATCH_CALLS = 10;
