-- Bastide's game store, SQLite edition. The action log is append-only:
-- (game, idx) is the primary key, so two racing writers of the same action
-- index resolve to exactly one winner, and triggers refuse changes.

CREATE TABLE games (
    id            TEXT    PRIMARY KEY NOT NULL,
    -- The engine's GameConfig as JSON, seed included (never sent to clients
    -- before the game ends: it fixes the draw order).
    config        TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'resigned')),
    resigned_seat INTEGER CHECK (resigned_seat IS NULL OR resigned_seat BETWEEN 0 AND 5),
    -- Unix time in milliseconds.
    created       INTEGER NOT NULL
);

CREATE INDEX games_by_status ON games (status, created);

CREATE TABLE seats (
    game       TEXT    NOT NULL REFERENCES games (id),
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    -- 'human' or a bot spec such as 'greedy' or 'mcts:500'.
    kind       TEXT    NOT NULL,
    -- SHA-256 of the seat's token (people only); the token itself is never stored.
    token_hash BLOB,
    joined     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seat)
);

CREATE TABLE actions (
    game   TEXT    NOT NULL REFERENCES games (id),
    idx    INTEGER NOT NULL CHECK (idx >= 0),
    -- One action in record form (notation.md), e.g. {"pass":{}}.
    action TEXT    NOT NULL,
    PRIMARY KEY (game, idx)
);

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
