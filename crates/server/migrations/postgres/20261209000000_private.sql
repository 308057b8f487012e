-- A private game (docs/server.md, "Taking a seat"): its seats are taken
-- by invite link only, and the lobby does not list it as open.
ALTER TABLE games ADD COLUMN private BOOLEAN NOT NULL DEFAULT FALSE;
