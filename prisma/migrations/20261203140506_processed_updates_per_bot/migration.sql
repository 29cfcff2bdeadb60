-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_processed_updates" (
    "bot_id" BIGINT NOT NULL DEFAULT 0,
    "update_id" BIGINT NOT NULL,
    "handled_at" TEXT NOT NULL,

    PRIMARY KEY ("bot_id", "update_id")
);
INSERT INTO "new_processed_updates" ("handled_at", "update_id") SELECT "handled_at", "update_id" FROM "processed_updates";
DROP TABLE "processed_updates";
ALTER TABLE "new_processed_updates" RENAME TO "processed_updates";
CREATE INDEX "idx_processed_updates_handled" ON "processed_updates"("handled_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
