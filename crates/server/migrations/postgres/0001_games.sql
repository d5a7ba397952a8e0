-- A game is its setup and its action log (the record format), plus its seats.
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    created_at  BIGINT NOT NULL,           -- Unix seconds
    setup       TEXT NOT NULL,              -- the record's setup, as JSON (seed included)
    status      TEXT NOT NULL DEFAULT 'running',
    confirmed   BIGINT NOT NULL DEFAULT 0  -- the version its last turn was confirmed at (take-back)
);

CREATE TABLE seats (
    game_id      TEXT NOT NULL REFERENCES games (id),
    seat         BIGINT NOT NULL,          -- 0-based: P1 is 0
    name         TEXT NOT NULL,
    bot          TEXT,                      -- the bot's spec; NULL for a person
    open         BIGINT NOT NULL DEFAULT 0, -- 1 while a person's seat waits for someone to join from the lobby
    token_hash   TEXT,                      -- SHA-256 of the seat's token, hex; NULL for bots and open seats
    auto_confirm BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE actions (
    game_id  TEXT NOT NULL REFERENCES games (id),
    n        BIGINT NOT NULL,              -- 1-based: the version after this action
    action   TEXT NOT NULL,                 -- record notation
    PRIMARY KEY (game_id, n)
);

CREATE INDEX games_by_status ON games (status, created_at);
