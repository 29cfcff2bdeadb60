-- CreateTable
CREATE TABLE "telegram_send_budget" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "next_at" BIGINT NOT NULL,
    "recent" TEXT NOT NULL DEFAULT ''
);

-- CreateIndex
CREATE INDEX "telegram_send_budget_next_at_idx" ON "telegram_send_budget"("next_at");
