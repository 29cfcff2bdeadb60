-- CreateTable
CREATE TABLE "users" (
    "telegram_user_id" BIGINT NOT NULL PRIMARY KEY,
    "consented_at" TEXT,
    "pack_link" TEXT,
    "pack_name" TEXT,
    "pack_completed_at" TEXT,
    "extra_packs_allowed" INTEGER NOT NULL DEFAULT 0,
    "first_name" TEXT,
    "last_name" TEXT,
    "username" TEXT,
    "created_at" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "sessions" (
    "session_token" TEXT NOT NULL PRIMARY KEY,
    "telegram_user_id" BIGINT,
    "template_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'idle',
    "notice" TEXT,
    "closed_reason" TEXT,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "jobs" (
    "job_id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "telegram_user_id" BIGINT NOT NULL,
    "session_token" TEXT NOT NULL,
    "photo_path" TEXT NOT NULL,
    "template_id" TEXT NOT NULL,
    "provider_used" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "pack_name" TEXT,
    "pack_created_at" TEXT,
    "link_sent_at" TEXT,
    "delay_notice_sent_at" TEXT,
    "appearance_json" TEXT,
    "render_mode" TEXT,
    "art_style" TEXT,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "api_usage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "job_id" INTEGER,
    "ts" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT,
    "prompt_tokens" INTEGER,
    "output_tokens" INTEGER,
    "images" INTEGER NOT NULL DEFAULT 0,
    "est_cost_usd" REAL NOT NULL DEFAULT 0,
    "ok" INTEGER NOT NULL,
    "http_status" INTEGER,
    "error" TEXT,
    "stage" TEXT,
    "resolution" TEXT,
    "image_tokens" INTEGER,
    "thoughts_tokens" INTEGER
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ts" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "ip" TEXT,
    "action" TEXT NOT NULL,
    "telegram_user_id" BIGINT,
    "job_id" INTEGER,
    "details" TEXT
);

-- CreateTable
CREATE TABLE "settings" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "leads" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "request_id" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "submitted_at" TEXT,
    "name" TEXT,
    "telegram" TEXT,
    "phone" TEXT,
    "event_date" TEXT,
    "guests" TEXT,
    "comment" TEXT,
    "locale" TEXT,
    "utm" TEXT,
    "utm_source" TEXT,
    "utm_medium" TEXT,
    "utm_campaign" TEXT,
    "ip_hash" TEXT,
    "status" TEXT NOT NULL DEFAULT 'new',
    "status_by" BIGINT,
    "status_by_name" TEXT,
    "status_at" TEXT,
    "chat_id" BIGINT,
    "message_id" BIGINT,
    "published_at" TEXT,
    "publish_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_publish_at" TEXT,
    "publish_error" TEXT,
    "reminded_at" TEXT,
    "erased_at" TEXT
);

-- CreateTable
CREATE TABLE "lead_status_history" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "lead_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "by_user_id" BIGINT NOT NULL,
    "by_name" TEXT,
    "at" TEXT NOT NULL,
    CONSTRAINT "lead_status_history_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "lead_repeats" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "lead_id" INTEGER NOT NULL,
    "request_id" TEXT NOT NULL,
    "at" TEXT NOT NULL,
    "telegram" TEXT,
    "phone" TEXT,
    "event_date" TEXT,
    "guests" TEXT,
    "comment" TEXT,
    "locale" TEXT,
    "utm_source" TEXT,
    "ip_hash" TEXT,
    "notified_at" TEXT,
    "notify_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_notify_at" TEXT,
    "notify_error" TEXT,
    CONSTRAINT "lead_repeats_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "operators" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "username" TEXT NOT NULL,
    "display_name" TEXT,
    "password_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'operator',
    "created_at" TEXT NOT NULL,
    "disabled_at" TEXT
);

-- CreateTable
CREATE TABLE "operator_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "operator_id" INTEGER NOT NULL,
    "created_at" TEXT NOT NULL,
    "expires_at" TEXT NOT NULL,
    CONSTRAINT "operator_sessions_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "worker_processes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pid" INTEGER NOT NULL,
    "hostname" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "slots" INTEGER NOT NULL DEFAULT 0,
    "busy_slots" INTEGER NOT NULL DEFAULT 0,
    "started_at" TEXT NOT NULL,
    "heartbeat_at" TEXT NOT NULL,
    "stopped_at" TEXT
);

-- CreateIndex
CREATE INDEX "idx_jobs_status" ON "jobs"("status");

-- CreateIndex
CREATE INDEX "idx_jobs_user" ON "jobs"("telegram_user_id");

-- CreateIndex
CREATE INDEX "idx_api_usage_ts" ON "api_usage"("ts");

-- CreateIndex
CREATE INDEX "idx_api_usage_job" ON "api_usage"("job_id");

-- CreateIndex
CREATE INDEX "idx_audit_ts" ON "audit_log"("ts");

-- CreateIndex
CREATE UNIQUE INDEX "leads_request_id_key" ON "leads"("request_id");

-- CreateIndex
CREATE INDEX "idx_leads_status" ON "leads"("status");

-- CreateIndex
CREATE INDEX "idx_leads_outbox" ON "leads"("published_at", "next_publish_at");

-- CreateIndex
CREATE INDEX "idx_leads_created" ON "leads"("created_at");

-- CreateIndex
CREATE INDEX "idx_lead_history_lead" ON "lead_status_history"("lead_id");

-- CreateIndex
CREATE UNIQUE INDEX "lead_repeats_request_id_key" ON "lead_repeats"("request_id");

-- CreateIndex
CREATE INDEX "idx_lead_repeats_lead" ON "lead_repeats"("lead_id");

-- CreateIndex
CREATE INDEX "idx_lead_repeats_outbox" ON "lead_repeats"("notified_at", "next_notify_at");

-- CreateIndex
CREATE UNIQUE INDEX "operators_username_key" ON "operators"("username");

-- CreateIndex
CREATE INDEX "idx_operator_sessions_operator" ON "operator_sessions"("operator_id");

-- CreateIndex
CREATE INDEX "idx_operator_sessions_expires" ON "operator_sessions"("expires_at");

-- CreateIndex
CREATE INDEX "idx_worker_processes_heartbeat" ON "worker_processes"("heartbeat_at");
