-- News (broadcasts) become their own opt-in, as in the SQLite migration of the same name. Guests who
-- only consented to the selfie get no row (they are out until they say yes), opt-outs carry over as 'out'.
-- (No semicolons in these comments: the schema engine's replay splits the file at every one.)

-- CreateTable
CREATE TABLE "news_opt_ins" (
    "telegram_user_id" BIGINT NOT NULL,
    "state" TEXT NOT NULL,
    "wording_version" TEXT,
    "locale" TEXT,
    "via" TEXT,
    "event_id" INTEGER,
    "broadcast_id" INTEGER,
    "asked_at" TEXT,
    "answered_at" TEXT,
    "updated_at" TEXT NOT NULL,

    CONSTRAINT "news_opt_ins_pkey" PRIMARY KEY ("telegram_user_id")
);

-- CreateIndex
CREATE INDEX "idx_news_opt_ins_state" ON "news_opt_ins"("state");

-- Opt-outs: the button under a broadcast, or /stop.
INSERT INTO "news_opt_ins" ("telegram_user_id", "state", "via", "broadcast_id", "answered_at", "updated_at")
SELECT "telegram_user_id", 'out', CASE WHEN "via" = 'button' THEN 'broadcast_button' ELSE 'stop' END, "broadcast_id", "opted_out_at", "opted_out_at"
FROM "broadcast_opt_outs";

-- DropTable
DROP TABLE "broadcast_opt_outs";
