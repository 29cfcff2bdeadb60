-- CreateTable
CREATE TABLE "log_entries" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" TEXT NOT NULL,
    "process" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "context" TEXT,
    "worker_id" TEXT
);

-- CreateIndex
CREATE INDEX "idx_log_entries_at" ON "log_entries"("at");

-- CreateIndex
CREATE INDEX "idx_log_entries_worker" ON "log_entries"("worker_id");
