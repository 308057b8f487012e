-- The address a game is charged to (docs/server.md, "Limits"): 16 bytes
-- of SHA-256 of the creator's address class, so that the caps per address
-- still hold after a restart. NULL: the operator's game, or one written
-- before this column.
ALTER TABLE games ADD COLUMN creator BYTEA;
