-- Bastide's game store, PostgreSQL edition. The action log is append-only:
-- (game, idx) is the primary key, so two racing writers of the same action
-- index resolve to exactly one winner, and a trigger refuses changes.

CREATE TABLE games (
    id            TEXT     PRIMARY KEY,
    -- The engine's GameConfig as JSON text (not jsonb: its bytes are kept
    -- as written), seed included; never sent to clients before the game ends.
    config        TEXT     NOT NULL,
    status        TEXT     NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'resigned')),
    resigned_seat SMALLINT CHECK (resigned_seat IS NULL OR resigned_seat BETWEEN 0 AND 5),
    -- Unix time in milliseconds.
    created       BIGINT   NOT NULL
);

CREATE INDEX games_by_status ON games (status, created);

CREATE TABLE seats (
    game       TEXT     NOT NULL REFERENCES games (id),
    seat       SMALLINT NOT NULL CHECK (seat BETWEEN 0 AND 5),
    -- 'human' or a bot spec such as 'greedy' or 'mcts:500'.
    kind       TEXT     NOT NULL,
    -- SHA-256 of the seat's token (people only); the token itself is never stored.
    token_hash BYTEA,
    joined     BOOLEAN  NOT NULL DEFAULT FALSE,
    PRIMARY KEY (game, seat)
);

CREATE TABLE actions (
    game   TEXT    NOT NULL REFERENCES games (id),
    idx    INTEGER NOT NULL CHECK (idx >= 0),
    -- One action in record form (notation.md), e.g. {"pass":{}}.
    action TEXT    NOT NULL,
    PRIMARY KEY (game, idx)
);

CREATE FUNCTION bastide_actions_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the action log is append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER actions_append_only BEFORE UPDATE OR DELETE ON actions
    FOR EACH ROW EXECUTE FUNCTION bastide_actions_append_only();
