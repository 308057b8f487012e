-- Rated play that means what it says (docs/server.md, "Rated games").
-- The address classes an account was seen at (signing in, signing up,
-- creating or taking a seat), as the 16-byte keys games are charged by:
-- two accounts seen at one address count as one household for the
-- daily limit on rated games between them.
CREATE TABLE account_addresses (
    account INTEGER NOT NULL REFERENCES accounts (id),
    address BLOB    NOT NULL,
    -- Unix milliseconds, the last time.
    seen    INTEGER NOT NULL,
    PRIMARY KEY (account, address)
);
CREATE INDEX account_addresses_by_address ON account_addresses (address);

-- Each pair of accounts a rated game rated against each other: the
-- daily limit counts these (low < high are the accounts; address, the
-- address they shared, if any).
CREATE TABLE rated_pairs (
    game    TEXT    NOT NULL REFERENCES games (id),
    low     INTEGER NOT NULL,
    high    INTEGER NOT NULL,
    address BLOB,
    at      INTEGER NOT NULL
);
CREATE INDEX rated_pairs_by_accounts ON rated_pairs (low, high, at);
CREATE INDEX rated_pairs_by_address ON rated_pairs (address, at);
CREATE INDEX rated_pairs_by_game ON rated_pairs (game);
