-- The game a finished game's rematch is (set once: the first request wins).
ALTER TABLE games ADD COLUMN rematch TEXT;
