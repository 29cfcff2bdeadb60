-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_events" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "starts_on" TEXT,
    "ends_on" TEXT,
    "state" TEXT NOT NULL DEFAULT 'draft',
    "title_template" TEXT NOT NULL,
    "captions_json" TEXT,
    "catalogue_version" INTEGER,
    "animated_stickers" INTEGER NOT NULL DEFAULT 3,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL
);
INSERT INTO "new_events" ("captions_json", "catalogue_version", "created_at", "ends_on", "id", "name", "starts_on", "state", "title_template", "updated_at") SELECT "captions_json", "catalogue_version", "created_at", "ends_on", "id", "name", "starts_on", "state", "title_template", "updated_at" FROM "events";
DROP TABLE "events";
ALTER TABLE "new_events" RENAME TO "events";
CREATE INDEX "idx_events_state" ON "events"("state");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
