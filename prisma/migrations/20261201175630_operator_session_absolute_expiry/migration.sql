-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_operator_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "operator_id" INTEGER NOT NULL,
    "created_at" TEXT NOT NULL,
    "expires_at" TEXT NOT NULL,
    "absolute_expires_at" TEXT NOT NULL,
    CONSTRAINT "operator_sessions_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Sessions opened before this migration end 30 days after their sign-in, like every later one.
INSERT INTO "new_operator_sessions" ("created_at", "expires_at", "id", "operator_id", "absolute_expires_at") SELECT "created_at", "expires_at", "id", "operator_id", strftime('%Y-%m-%dT%H:%M:%fZ', "created_at", '+30 days') FROM "operator_sessions";
DROP TABLE "operator_sessions";
ALTER TABLE "new_operator_sessions" RENAME TO "operator_sessions";
CREATE INDEX "idx_operator_sessions_operator" ON "operator_sessions"("operator_id");
CREATE INDEX "idx_operator_sessions_expires" ON "operator_sessions"("expires_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
