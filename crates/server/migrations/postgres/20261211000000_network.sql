-- The network a game was created from (docs/server.md, "Limits"): 16
-- bytes of SHA-256 of the creator's IPv4 /24 or IPv6 /48, whoever the game
-- is charged to, so that the caps per network hold after a restart and
-- over every instance. NULL: the operator's game, or one written before.
ALTER TABLE games ADD COLUMN network BYTEA;
CREATE INDEX games_by_network ON games (network, status) WHERE network IS NOT NULL;
