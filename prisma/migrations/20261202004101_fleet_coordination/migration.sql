-- CreateTable
CREATE TABLE "scheduled_task_runs" (
    "task" TEXT NOT NULL,
    "period_start" TEXT NOT NULL,
    "claimed_by" TEXT NOT NULL,
    "claimed_at" TEXT NOT NULL,
    "finished_at" TEXT,

    PRIMARY KEY ("task", "period_start")
);

-- CreateTable
CREATE TABLE "leader_leases" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expires_at" TEXT NOT NULL,
    "renewed_at" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "idx_scheduled_task_runs_claimed" ON "scheduled_task_runs"("claimed_at");
