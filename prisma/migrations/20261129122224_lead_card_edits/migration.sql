-- CreateTable
CREATE TABLE "lead_card_edits" (
    "lead_id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "requested_at" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TEXT,
    "last_error" TEXT
);

-- CreateIndex
CREATE INDEX "idx_lead_card_edits_due" ON "lead_card_edits"("next_attempt_at");
