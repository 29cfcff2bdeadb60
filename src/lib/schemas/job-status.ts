import { z } from 'zod';

/**
 * The statuses of a job (jobs.status), shared by the worker, the kiosk's queue view and the
 * console pages. queued → processing (claimed) → delivering (the sticker set is being made) →
 * done; a job that cannot be made ends failed, and an operator may put a failed job back to queued.
 * Only src/lib/server/jobs/job.repository.ts and job-claims.repository.ts write them.
 */
export const JOB_STATUSES = ['queued', 'processing', 'delivering', 'done', 'failed'] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** Jobs that still hold the guest's pack slot and their deadlines run for (failed ones never do). */
export const ACTIVE_JOB_STATUSES = ['queued', 'processing', 'delivering'] as const satisfies readonly JobStatus[];
/** Jobs a worker slot holds by a lease. */
export const CLAIMED_JOB_STATUSES = ['processing', 'delivering'] as const satisfies readonly JobStatus[];
/** Jobs that are over, one way or the other. */
export const FINISHED_JOB_STATUSES = ['done', 'failed'] as const satisfies readonly JobStatus[];

export function isJobStatus(value: unknown): value is JobStatus {
	return jobStatusSchema.safeParse(value).success;
}
