-- When a game last changed (Unix seconds): abandoned games are found by it (`carc serve --abandon-after`).
ALTER TABLE games ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
UPDATE games SET updated_at = created_at;
CREATE INDEX games_by_update ON games (status, updated_at);
