-- Players (docs/server.md, "Players"): accounts, their sessions, seats held
-- by account, rated games and the ratings they moved.
CREATE TABLE accounts (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The name as chosen; name_key is it in lower case, unique, so that
    -- names differing only in case cannot both exist.
    name     TEXT    NOT NULL,
    name_key TEXT    NOT NULL UNIQUE,
    -- An argon2id hash in PHC form; the password itself is never stored.
    password TEXT    NOT NULL,
    -- Unix milliseconds.
    created  INTEGER NOT NULL
);

CREATE TABLE sessions (
    -- SHA-256 of the session cookie's token; the token is never stored.
    token_hash BLOB    PRIMARY KEY NOT NULL,
    account    INTEGER NOT NULL REFERENCES accounts (id),
    created    INTEGER NOT NULL,
    expires    INTEGER NOT NULL
);

CREATE INDEX sessions_by_expiry ON sessions (expires);

-- The account holding a seat (none: a guest's seat or a bot's), and the
-- seat's place at the end (1 the best) in a game with accounts in it.
ALTER TABLE seats ADD COLUMN account INTEGER REFERENCES accounts (id);
ALTER TABLE seats ADD COLUMN place INTEGER;
CREATE INDEX seats_by_account ON seats (account);

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

-- A player's Glicko-2 rating per class: 'duel' (two players) or 'multi'
-- (three to six, rated pairwise).
CREATE TABLE ratings (
    account    INTEGER NOT NULL REFERENCES accounts (id),
    class      TEXT    NOT NULL CHECK (class IN ('duel', 'multi')),
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    PRIMARY KEY (account, class)
);

CREATE INDEX ratings_by_rating ON ratings (class, rating);

-- What each rated game did to each account's rating.
CREATE TABLE rating_changes (
    game      TEXT    NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    account   INTEGER NOT NULL REFERENCES accounts (id),
    class     TEXT    NOT NULL,
    before    REAL    NOT NULL,
    after     REAL    NOT NULL,
    deviation REAL    NOT NULL,
    at        INTEGER NOT NULL,
    PRIMARY KEY (game, seat)
);
