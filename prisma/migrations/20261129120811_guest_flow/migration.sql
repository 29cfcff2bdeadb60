-- CreateTable
CREATE TABLE "kiosks" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "last_seen_at" TEXT,
    "revoked_at" TEXT
);

-- CreateTable
CREATE TABLE "kiosk_sessions" (
    "session_token" TEXT NOT NULL PRIMARY KEY,
    "kiosk_id" INTEGER NOT NULL,
    "created_at" TEXT NOT NULL,
    CONSTRAINT "kiosk_sessions_kiosk_id_fkey" FOREIGN KEY ("kiosk_id") REFERENCES "kiosks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "job_messages" (
    "job_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "chat_id" BIGINT NOT NULL,
    "message_id" BIGINT NOT NULL,
    "sent_at" TEXT NOT NULL,

    PRIMARY KEY ("job_id", "kind")
);

-- CreateTable
CREATE TABLE "processed_updates" (
    "update_id" BIGINT NOT NULL PRIMARY KEY,
    "handled_at" TEXT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "kiosks_name_key" ON "kiosks"("name");

-- CreateIndex
CREATE UNIQUE INDEX "kiosks_key_hash_key" ON "kiosks"("key_hash");

-- CreateIndex
CREATE INDEX "idx_kiosk_sessions_kiosk" ON "kiosk_sessions"("kiosk_id", "created_at");

-- CreateIndex
CREATE INDEX "idx_processed_updates_handled" ON "processed_updates"("handled_at");
