-- CreateTable
CREATE TABLE "scheduled_task_runs" (
    "task" TEXT NOT NULL,
    "period_start" TEXT NOT NULL,
    "claimed_by" TEXT NOT NULL,
    "claimed_at" TEXT NOT NULL,
    "finished_at" TEXT,

    CONSTRAINT "scheduled_task_runs_pkey" PRIMARY KEY ("task","period_start")
);

-- CreateTable
CREATE TABLE "leader_leases" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TEXT NOT NULL,
    "renewed_at" TEXT NOT NULL,

    CONSTRAINT "leader_leases_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "idx_scheduled_task_runs_claimed" ON "scheduled_task_runs"("claimed_at");
