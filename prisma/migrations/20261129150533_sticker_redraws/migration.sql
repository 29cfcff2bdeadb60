-- CreateTable
CREATE TABLE "sticker_redraws" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "job_id" INTEGER NOT NULL,
    "sticker_number" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "requested_by" TEXT NOT NULL,
    "error" TEXT,
    "claimed_at" TEXT,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "idx_sticker_redraws_status" ON "sticker_redraws"("status", "created_at");

-- CreateIndex
CREATE INDEX "idx_sticker_redraws_job" ON "sticker_redraws"("job_id");
