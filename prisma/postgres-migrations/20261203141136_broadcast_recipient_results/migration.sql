-- CreateIndex
CREATE INDEX "idx_broadcast_recipients_results" ON "broadcast_recipients"("broadcast_id", "state", "id");

-- CreateIndex
CREATE INDEX "idx_broadcast_recipients_pages" ON "broadcast_recipients"("broadcast_id", "id");
