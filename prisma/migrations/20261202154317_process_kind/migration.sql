-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_worker_processes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pid" INTEGER NOT NULL,
    "hostname" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "slots" INTEGER NOT NULL DEFAULT 0,
    "busy_slots" INTEGER NOT NULL DEFAULT 0,
    "started_at" TEXT NOT NULL,
    "heartbeat_at" TEXT NOT NULL,
    "stopped_at" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'worker'
);
INSERT INTO "new_worker_processes" ("busy_slots", "heartbeat_at", "hostname", "id", "pid", "slots", "started_at", "stopped_at", "version") SELECT "busy_slots", "heartbeat_at", "hostname", "id", "pid", "slots", "started_at", "stopped_at", "version" FROM "worker_processes";
DROP TABLE "worker_processes";
ALTER TABLE "new_worker_processes" RENAME TO "worker_processes";
CREATE INDEX "idx_worker_processes_heartbeat" ON "worker_processes"("heartbeat_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
