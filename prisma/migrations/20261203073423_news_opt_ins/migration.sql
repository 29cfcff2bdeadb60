-- News (broadcasts) become their own opt-in. The selfie consent (users.consented_at) no longer puts
-- anyone in a broadcast's audience: no row here is made for a guest who only consented, so guests
-- who consented before this change are out until they say yes. Opt-outs carry over as 'out' (the
-- one record of a guest's choice from now on), with how and when they were made. The line below
-- tells the migration safety net (safe-migrate.ts) that broadcast_opt_outs' rows move, not vanish:
-- rows-move: broadcast_opt_outs -> news_opt_ins

-- CreateTable
CREATE TABLE "news_opt_ins" (
    "telegram_user_id" BIGINT NOT NULL PRIMARY KEY,
    "state" TEXT NOT NULL,
    "wording_version" TEXT,
    "locale" TEXT,
    "via" TEXT,
    "event_id" INTEGER,
    "broadcast_id" INTEGER,
    "asked_at" TEXT,
    "answered_at" TEXT,
    "updated_at" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "idx_news_opt_ins_state" ON "news_opt_ins"("state");

-- Opt-outs: the button under a broadcast, or /stop.
INSERT INTO "news_opt_ins" ("telegram_user_id", "state", "via", "broadcast_id", "answered_at", "updated_at")
SELECT "telegram_user_id", 'out', CASE WHEN "via" = 'button' THEN 'broadcast_button' ELSE 'stop' END, "broadcast_id", "opted_out_at", "opted_out_at"
FROM "broadcast_opt_outs";

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "broadcast_opt_outs";
PRAGMA foreign_keys=on;
