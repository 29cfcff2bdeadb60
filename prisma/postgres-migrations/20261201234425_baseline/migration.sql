-- CreateTable
CREATE TABLE "users" (
    "telegram_user_id" BIGINT NOT NULL,
    "consented_at" TEXT,
    "pack_link" TEXT,
    "pack_name" TEXT,
    "pack_completed_at" TEXT,
    "extra_packs_allowed" INTEGER NOT NULL DEFAULT 0,
    "first_name" TEXT,
    "last_name" TEXT,
    "username" TEXT,
    "created_at" TEXT NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("telegram_user_id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "session_token" TEXT NOT NULL,
    "telegram_user_id" BIGINT,
    "template_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'idle',
    "notice" TEXT,
    "closed_reason" TEXT,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("session_token")
);

-- CreateTable
CREATE TABLE "jobs" (
    "job_id" SERIAL NOT NULL,
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
    "updated_at" TEXT NOT NULL,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable
CREATE TABLE "api_usage" (
    "id" SERIAL NOT NULL,
    "job_id" INTEGER,
    "ts" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT,
    "prompt_tokens" INTEGER,
    "output_tokens" INTEGER,
    "images" INTEGER NOT NULL DEFAULT 0,
    "est_cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "ok" INTEGER NOT NULL,
    "http_status" INTEGER,
    "error" TEXT,
    "stage" TEXT,
    "resolution" TEXT,
    "image_tokens" INTEGER,
    "thoughts_tokens" INTEGER,

    CONSTRAINT "api_usage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" SERIAL NOT NULL,
    "ts" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "ip" TEXT,
    "action" TEXT NOT NULL,
    "telegram_user_id" BIGINT,
    "job_id" INTEGER,
    "details" TEXT,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settings" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,

    CONSTRAINT "settings_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "leads" (
    "id" SERIAL NOT NULL,
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
    "erased_at" TEXT,

    CONSTRAINT "leads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lead_status_history" (
    "id" SERIAL NOT NULL,
    "lead_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "by_user_id" BIGINT NOT NULL,
    "by_name" TEXT,
    "at" TEXT NOT NULL,

    CONSTRAINT "lead_status_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lead_repeats" (
    "id" SERIAL NOT NULL,
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

    CONSTRAINT "lead_repeats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operators" (
    "id" SERIAL NOT NULL,
    "username" TEXT NOT NULL,
    "display_name" TEXT,
    "password_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'operator',
    "created_at" TEXT NOT NULL,
    "disabled_at" TEXT,
    "telegram_id" BIGINT,

    CONSTRAINT "operators_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_sessions" (
    "id" TEXT NOT NULL,
    "operator_id" INTEGER NOT NULL,
    "created_at" TEXT NOT NULL,
    "expires_at" TEXT NOT NULL,
    "absolute_expires_at" TEXT NOT NULL,

    CONSTRAINT "operator_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "worker_processes" (
    "id" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "hostname" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "slots" INTEGER NOT NULL DEFAULT 0,
    "busy_slots" INTEGER NOT NULL DEFAULT 0,
    "started_at" TEXT NOT NULL,
    "heartbeat_at" TEXT NOT NULL,
    "stopped_at" TEXT,

    CONSTRAINT "worker_processes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "kiosks" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "last_seen_at" TEXT,
    "revoked_at" TEXT,

    CONSTRAINT "kiosks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "kiosk_sessions" (
    "session_token" TEXT NOT NULL,
    "kiosk_id" INTEGER NOT NULL,
    "created_at" TEXT NOT NULL,
    "event_id" INTEGER,

    CONSTRAINT "kiosk_sessions_pkey" PRIMARY KEY ("session_token")
);

-- CreateTable
CREATE TABLE "job_messages" (
    "job_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "chat_id" BIGINT NOT NULL,
    "message_id" BIGINT NOT NULL,
    "sent_at" TEXT NOT NULL,
    "shown_text" TEXT,
    "edited_at" TEXT,

    CONSTRAINT "job_messages_pkey" PRIMARY KEY ("job_id","kind")
);

-- CreateTable
CREATE TABLE "guest_notices" (
    "id" SERIAL NOT NULL,
    "job_id" INTEGER NOT NULL,
    "telegram_user_id" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "text_key" TEXT NOT NULL,
    "text_params" TEXT,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TEXT NOT NULL,
    "claimed_until" TEXT,
    "message_id" BIGINT,
    "error" TEXT,
    "created_at" TEXT NOT NULL,
    "sent_at" TEXT,

    CONSTRAINT "guest_notices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processed_updates" (
    "update_id" BIGINT NOT NULL,
    "handled_at" TEXT NOT NULL,

    CONSTRAINT "processed_updates_pkey" PRIMARY KEY ("update_id")
);

-- CreateTable
CREATE TABLE "login_throttle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "first_failure_at" TEXT NOT NULL,
    "last_failure_at" TEXT NOT NULL,
    "blocked_until" TEXT,

    CONSTRAINT "login_throttle_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "erasures" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "erased_at" TEXT NOT NULL,
    "pack_name_hashes" TEXT,

    CONSTRAINT "erasures_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lead_card_edits" (
    "lead_id" INTEGER NOT NULL,
    "requested_at" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TEXT,
    "last_error" TEXT,

    CONSTRAINT "lead_card_edits_pkey" PRIMARY KEY ("lead_id")
);

-- CreateTable
CREATE TABLE "guest_bot_blocks" (
    "telegram_user_id" BIGINT NOT NULL,
    "blocked_at" TEXT NOT NULL,

    CONSTRAINT "guest_bot_blocks_pkey" PRIMARY KEY ("telegram_user_id")
);

-- CreateTable
CREATE TABLE "guest_languages" (
    "telegram_user_id" BIGINT NOT NULL,
    "locale" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,

    CONSTRAINT "guest_languages_pkey" PRIMARY KEY ("telegram_user_id")
);

-- CreateTable
CREATE TABLE "job_leases" (
    "job_id" INTEGER NOT NULL,
    "worker_id" TEXT NOT NULL,
    "claimed_at" TEXT NOT NULL,
    "heartbeat_at" TEXT NOT NULL,
    "lease_expires_at" TEXT NOT NULL,

    CONSTRAINT "job_leases_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable
CREATE TABLE "job_progress" (
    "job_id" INTEGER NOT NULL,
    "stage" TEXT NOT NULL,
    "detail" TEXT,
    "stage_started_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,
    "not_before" TEXT,
    "stickers_ready_at" TEXT,
    "link_chat_id" BIGINT,
    "link_message_id" BIGINT,
    "stage_log" TEXT,

    CONSTRAINT "job_progress_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable
CREATE TABLE "sticker_redraws" (
    "id" SERIAL NOT NULL,
    "job_id" INTEGER NOT NULL,
    "sticker_number" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "requested_by" TEXT NOT NULL,
    "error" TEXT,
    "claimed_at" TEXT,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,

    CONSTRAINT "sticker_redraws_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bot_messages" (
    "id" SERIAL NOT NULL,
    "telegram_user_id" BIGINT NOT NULL,
    "direction" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT,
    "message_id" BIGINT,
    "at" TEXT NOT NULL,

    CONSTRAINT "bot_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message_activity" (
    "day" TEXT NOT NULL,
    "incoming" INTEGER NOT NULL DEFAULT 0,
    "outgoing" INTEGER NOT NULL DEFAULT 0,
    "guests" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "message_activity_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "log_entries" (
    "id" SERIAL NOT NULL,
    "at" TEXT NOT NULL,
    "process" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "context" TEXT,
    "worker_id" TEXT,

    CONSTRAINT "log_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "starts_on" TEXT,
    "ends_on" TEXT,
    "state" TEXT NOT NULL DEFAULT 'draft',
    "title_template" TEXT NOT NULL,
    "captions_json" TEXT,
    "catalogue_version" INTEGER,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_snapshots" (
    "job_id" INTEGER NOT NULL,
    "event_id" INTEGER NOT NULL,
    "catalogue_version" INTEGER NOT NULL,
    "outfit_json" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,

    CONSTRAINT "job_snapshots_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" SERIAL NOT NULL,
    "operator_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "rate_per_minute" INTEGER NOT NULL,
    "created_at" TEXT NOT NULL,
    "expires_at" TEXT NOT NULL,
    "revoked_at" TEXT,
    "last_used_at" TEXT,

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "queue_pauses" (
    "id" SERIAL NOT NULL,
    "source" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "started_at" TEXT NOT NULL,
    "until" TEXT,
    "ended_at" TEXT,

    CONSTRAINT "queue_pauses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "broadcasts" (
    "id" SERIAL NOT NULL,
    "event_id" INTEGER,
    "text" TEXT NOT NULL,
    "image_path" TEXT,
    "image_file_id" TEXT,
    "button_text" TEXT,
    "button_url" TEXT,
    "state" TEXT NOT NULL DEFAULT 'draft',
    "send_at" TEXT,
    "audience_count" INTEGER,
    "created_by" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,
    "started_at" TEXT,
    "finished_at" TEXT,

    CONSTRAINT "broadcasts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "broadcast_recipients" (
    "id" SERIAL NOT NULL,
    "broadcast_id" INTEGER NOT NULL,
    "telegram_user_id" BIGINT NOT NULL,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TEXT,
    "error" TEXT,
    "message_id" BIGINT,
    "sent_at" TEXT,
    "updated_at" TEXT NOT NULL,

    CONSTRAINT "broadcast_recipients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "broadcast_opt_outs" (
    "telegram_user_id" BIGINT NOT NULL,
    "via" TEXT NOT NULL,
    "broadcast_id" INTEGER,
    "opted_out_at" TEXT NOT NULL,

    CONSTRAINT "broadcast_opt_outs_pkey" PRIMARY KEY ("telegram_user_id")
);

-- CreateTable
CREATE TABLE "catalogue_drafts" (
    "event_id" INTEGER NOT NULL,
    "outfits_json" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "updated_by" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,

    CONSTRAINT "catalogue_drafts_pkey" PRIMARY KEY ("event_id")
);

-- CreateTable
CREATE TABLE "catalogue_versions" (
    "event_id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "outfits_json" TEXT NOT NULL,
    "published_by" TEXT NOT NULL,
    "published_at" TEXT NOT NULL,
    "rolled_back_from" INTEGER,
    "change_summary" TEXT NOT NULL,

    CONSTRAINT "catalogue_versions_pkey" PRIMARY KEY ("event_id","version")
);

-- CreateTable
CREATE TABLE "event_kiosks" (
    "event_id" INTEGER NOT NULL,
    "kiosk_id" INTEGER NOT NULL,
    "assigned_at" TEXT NOT NULL,

    CONSTRAINT "event_kiosks_pkey" PRIMARY KEY ("event_id","kiosk_id")
);

-- CreateTable
CREATE TABLE "media_files" (
    "content_hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "telegram_file_id" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,

    CONSTRAINT "media_files_pkey" PRIMARY KEY ("content_hash")
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

-- CreateIndex
CREATE UNIQUE INDEX "kiosks_name_key" ON "kiosks"("name");

-- CreateIndex
CREATE UNIQUE INDEX "kiosks_key_hash_key" ON "kiosks"("key_hash");

-- CreateIndex
CREATE INDEX "idx_kiosk_sessions_kiosk" ON "kiosk_sessions"("kiosk_id", "created_at");

-- CreateIndex
CREATE INDEX "idx_kiosk_sessions_event" ON "kiosk_sessions"("event_id");

-- CreateIndex
CREATE INDEX "idx_guest_notices_due" ON "guest_notices"("state", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "uq_guest_notices_job_kind" ON "guest_notices"("job_id", "kind");

-- CreateIndex
CREATE INDEX "idx_processed_updates_handled" ON "processed_updates"("handled_at");

-- CreateIndex
CREATE INDEX "idx_erasures_erased_at" ON "erasures"("erased_at");

-- CreateIndex
CREATE INDEX "idx_erasures_subject" ON "erasures"("kind", "subject");

-- CreateIndex
CREATE INDEX "idx_lead_card_edits_due" ON "lead_card_edits"("next_attempt_at");

-- CreateIndex
CREATE INDEX "idx_job_leases_expires" ON "job_leases"("lease_expires_at");

-- CreateIndex
CREATE INDEX "idx_job_progress_not_before" ON "job_progress"("not_before");

-- CreateIndex
CREATE INDEX "idx_sticker_redraws_status" ON "sticker_redraws"("status", "created_at");

-- CreateIndex
CREATE INDEX "idx_sticker_redraws_job" ON "sticker_redraws"("job_id");

-- CreateIndex
CREATE INDEX "idx_bot_messages_user_at" ON "bot_messages"("telegram_user_id", "at");

-- CreateIndex
CREATE INDEX "idx_bot_messages_at" ON "bot_messages"("at");

-- CreateIndex
CREATE INDEX "idx_log_entries_at" ON "log_entries"("at");

-- CreateIndex
CREATE INDEX "idx_log_entries_worker" ON "log_entries"("worker_id");

-- CreateIndex
CREATE INDEX "idx_events_state" ON "events"("state");

-- CreateIndex
CREATE INDEX "idx_job_snapshots_event" ON "job_snapshots"("event_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_secret_hash_key" ON "api_tokens"("secret_hash");

-- CreateIndex
CREATE INDEX "idx_api_tokens_operator" ON "api_tokens"("operator_id");

-- CreateIndex
CREATE INDEX "idx_queue_pauses_ended" ON "queue_pauses"("ended_at");

-- CreateIndex
CREATE INDEX "idx_broadcasts_state" ON "broadcasts"("state", "send_at");

-- CreateIndex
CREATE INDEX "idx_broadcast_recipients_outbox" ON "broadcast_recipients"("state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "idx_broadcast_recipients_user" ON "broadcast_recipients"("telegram_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "idx_broadcast_recipients_guest" ON "broadcast_recipients"("broadcast_id", "telegram_user_id", "test");

-- CreateIndex
CREATE INDEX "idx_event_kiosks_kiosk" ON "event_kiosks"("kiosk_id");

-- AddForeignKey
ALTER TABLE "lead_status_history" ADD CONSTRAINT "lead_status_history_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lead_repeats" ADD CONSTRAINT "lead_repeats_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "kiosk_sessions" ADD CONSTRAINT "kiosk_sessions_kiosk_id_fkey" FOREIGN KEY ("kiosk_id") REFERENCES "kiosks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_fkey" FOREIGN KEY ("broadcast_id") REFERENCES "broadcasts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Rows the SQLite migrations write (events, event_catalogue), so a new PostgreSQL database starts
-- like a new SQLite one: the live default event with catalogue version 1 (the eight built-in outfits)
-- and its draft. The default event takes id 1 explicitly, so its sequence moves past it.
INSERT INTO "events" ("id", "name", "state", "title_template", "captions_json", "catalogue_version", "created_at", "updated_at")
VALUES (1, 'Default event', 'live', '{pack_title}', NULL, 1, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
SELECT setval(pg_get_serial_sequence('events', 'id'), 1);
INSERT INTO "catalogue_versions" ("event_id", "version", "outfits_json", "published_by", "published_at", "rolled_back_from", "change_summary")
VALUES (1, 1, '[{"id":"astronaut","emoji":"🚀","title":{"ru":"Космонавт","uz":"Kosmonavt","en":"Astronaut"},"prompt":"a white space suit with an orange mission patch and a round helmet visor pushed up","palette":{"background":["#1d2b64","#0b1026"],"body":"#f4f6fb","trim":"#ff7a1a"},"figure":"astronaut","preview":null},{"id":"superhero","emoji":"🦸","title":{"ru":"Супергерой","uz":"Superqahramon","en":"Superhero"},"prompt":"a bright red superhero suit with a yellow star emblem, a flowing cape and a small eye mask","palette":{"background":["#ffd23f","#ff8c42"],"body":"#d7263d","trim":"#ffd23f"},"figure":"superhero","preview":null},{"id":"chef","emoji":"👨‍🍳","title":{"ru":"Шеф-повар","uz":"Oshpaz","en":"Chef"},"prompt":"a white double-breasted chef''s jacket, a red neckerchief and a tall toque","palette":{"background":["#ffe8d6","#f4a261"],"body":"#ffffff","trim":"#e63946"},"figure":"chef","preview":null},{"id":"pirate","emoji":"🏴‍☠️","title":{"ru":"Пират","uz":"Qaroqchi","en":"Pirate"},"prompt":"a navy pirate coat with gold buttons, a striped shirt and a black tricorn hat","palette":{"background":["#8ecae6","#219ebc"],"body":"#1d3557","trim":"#f1c40f"},"figure":"pirate","preview":null},{"id":"wizard","emoji":"🧙","title":{"ru":"Волшебник","uz":"Sehrgar","en":"Wizard"},"prompt":"a deep purple wizard robe with silver stars and a tall pointed hat","palette":{"background":["#c77dff","#3c096c"],"body":"#5a189a","trim":"#e0e1dd"},"figure":"wizard","preview":null},{"id":"knight","emoji":"🛡️","title":{"ru":"Рыцарь","uz":"Ritsar","en":"Knight"},"prompt":"polished silver armour with a blue tabard and a plumed helmet","palette":{"background":["#a8dadc","#457b9d"],"body":"#b8c0cc","trim":"#1d4e89"},"figure":"knight","preview":null},{"id":"rockstar","emoji":"🎸","title":{"ru":"Рок-звезда","uz":"Rok yulduzi","en":"Rock star"},"prompt":"a black leather jacket with studs, a band T-shirt and star-shaped sunglasses","palette":{"background":["#ff4d6d","#590d22"],"body":"#1b1b1e","trim":"#c0c0c0"},"figure":"rockstar","preview":null},{"id":"chapan","emoji":"🎉","title":{"ru":"Праздничный чапан","uz":"Bayramona to''n","en":"Festive chapan"},"prompt":"a festive Uzbek chapan robe with ikat stripes and an embroidered doppi skullcap","palette":{"background":["#ffe066","#06a77d"],"body":"#7b2cbf","trim":"#f77f00"},"figure":"chapan","preview":null}]', 'migration', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), NULL, 'The eight built-in outfits.');
INSERT INTO "catalogue_drafts" ("event_id", "outfits_json", "revision", "updated_by", "updated_at")
VALUES (1, '[{"id":"astronaut","emoji":"🚀","title":{"ru":"Космонавт","uz":"Kosmonavt","en":"Astronaut"},"prompt":"a white space suit with an orange mission patch and a round helmet visor pushed up","palette":{"background":["#1d2b64","#0b1026"],"body":"#f4f6fb","trim":"#ff7a1a"},"figure":"astronaut","preview":null},{"id":"superhero","emoji":"🦸","title":{"ru":"Супергерой","uz":"Superqahramon","en":"Superhero"},"prompt":"a bright red superhero suit with a yellow star emblem, a flowing cape and a small eye mask","palette":{"background":["#ffd23f","#ff8c42"],"body":"#d7263d","trim":"#ffd23f"},"figure":"superhero","preview":null},{"id":"chef","emoji":"👨‍🍳","title":{"ru":"Шеф-повар","uz":"Oshpaz","en":"Chef"},"prompt":"a white double-breasted chef''s jacket, a red neckerchief and a tall toque","palette":{"background":["#ffe8d6","#f4a261"],"body":"#ffffff","trim":"#e63946"},"figure":"chef","preview":null},{"id":"pirate","emoji":"🏴‍☠️","title":{"ru":"Пират","uz":"Qaroqchi","en":"Pirate"},"prompt":"a navy pirate coat with gold buttons, a striped shirt and a black tricorn hat","palette":{"background":["#8ecae6","#219ebc"],"body":"#1d3557","trim":"#f1c40f"},"figure":"pirate","preview":null},{"id":"wizard","emoji":"🧙","title":{"ru":"Волшебник","uz":"Sehrgar","en":"Wizard"},"prompt":"a deep purple wizard robe with silver stars and a tall pointed hat","palette":{"background":["#c77dff","#3c096c"],"body":"#5a189a","trim":"#e0e1dd"},"figure":"wizard","preview":null},{"id":"knight","emoji":"🛡️","title":{"ru":"Рыцарь","uz":"Ritsar","en":"Knight"},"prompt":"polished silver armour with a blue tabard and a plumed helmet","palette":{"background":["#a8dadc","#457b9d"],"body":"#b8c0cc","trim":"#1d4e89"},"figure":"knight","preview":null},{"id":"rockstar","emoji":"🎸","title":{"ru":"Рок-звезда","uz":"Rok yulduzi","en":"Rock star"},"prompt":"a black leather jacket with studs, a band T-shirt and star-shaped sunglasses","palette":{"background":["#ff4d6d","#590d22"],"body":"#1b1b1e","trim":"#c0c0c0"},"figure":"rockstar","preview":null},{"id":"chapan","emoji":"🎉","title":{"ru":"Праздничный чапан","uz":"Bayramona to''n","en":"Festive chapan"},"prompt":"a festive Uzbek chapan robe with ikat stripes and an embroidered doppi skullcap","palette":{"background":["#ffe066","#06a77d"],"body":"#7b2cbf","trim":"#f77f00"},"figure":"chapan","preview":null}]', 0, 'migration', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
