-- AlterTable
ALTER TABLE "kiosk_sessions" ADD COLUMN "event_id" INTEGER;

-- CreateTable
CREATE TABLE "events" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "starts_on" TEXT,
    "ends_on" TEXT,
    "state" TEXT NOT NULL DEFAULT 'draft',
    "title_template" TEXT NOT NULL,
    "captions_json" TEXT,
    "catalogue_version" INTEGER,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "job_snapshots" (
    "job_id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "event_id" INTEGER NOT NULL,
    "catalogue_version" INTEGER NOT NULL,
    "outfit_json" TEXT NOT NULL,
    "created_at" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "idx_events_state" ON "events"("state");

-- CreateIndex
CREATE INDEX "idx_job_snapshots_event" ON "job_snapshots"("event_id");

-- CreateIndex
CREATE INDEX "idx_kiosk_sessions_event" ON "kiosk_sessions"("event_id");

-- The default event: existing installs keep working unchanged. It is live, names sets with the
-- localised default title as before, uses the built-in captions and catalogue version 1 (today's
-- eight outfits, written by the catalogue migration). Every session made so far belongs to it.
INSERT INTO "events" ("id", "name", "state", "title_template", "captions_json", "catalogue_version", "created_at", "updated_at")
VALUES (1, 'Default event', 'live', '{pack_title}', NULL, 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
UPDATE "kiosk_sessions" SET "event_id" = 1 WHERE "event_id" IS NULL;
