-- Shared mode (several instances, `--nats`): the instance that drives a
-- game's bots and calls its time holds the game's lease until `until`
-- (the database's clock, so instances' clocks need not agree). An
-- instance that dies stops renewing; another takes the lease once it
-- has run out.
CREATE TABLE leases (
    game   TEXT        PRIMARY KEY REFERENCES games (id),
    holder TEXT        NOT NULL,
    until  TIMESTAMPTZ NOT NULL
);

CREATE INDEX leases_by_holder ON leases (holder);
