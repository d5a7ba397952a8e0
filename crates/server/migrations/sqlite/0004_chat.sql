-- A game's chat: its seats' messages, kept beside its action log (never in it: the record and its replay do not
-- know of them).
CREATE TABLE chat (
    game_id  TEXT NOT NULL REFERENCES games (id),
    n        INTEGER NOT NULL,              -- 1-based, in the order stored
    seat     INTEGER NOT NULL,              -- 0-based: P1 is 0
    name     TEXT NOT NULL,                 -- the seat's name when it wrote
    text     TEXT NOT NULL,
    version  INTEGER NOT NULL,              -- the game's number of actions when it was written
    at       INTEGER NOT NULL,              -- Unix seconds
    PRIMARY KEY (game_id, n)
);
