-- The games charged to one address, read by an instance in shared mode
-- to count the caps per address over every instance (docs/scaling.md).
CREATE INDEX games_by_creator ON games (creator, status) WHERE creator IS NOT NULL;
