-- CreateTable
CREATE TABLE "telegram_send_budget" (
    "key" TEXT NOT NULL,
    "next_at" BIGINT NOT NULL,
    "recent" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "telegram_send_budget_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "telegram_send_budget_next_at_idx" ON "telegram_send_budget"("next_at");
