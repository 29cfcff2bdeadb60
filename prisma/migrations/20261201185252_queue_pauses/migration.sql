-- CreateTable
CREATE TABLE "queue_pauses" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "source" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "started_at" TEXT NOT NULL,
    "until" TEXT,
    "ended_at" TEXT
);

-- CreateIndex
CREATE INDEX "idx_queue_pauses_ended" ON "queue_pauses"("ended_at");
