-- Clocks: a game's time control (JSON, absent for untimed games), when it
-- started, and when each action was committed (Unix milliseconds), from
-- which every seat's remaining time is rebuilt after a restart.
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN started BIGINT;
ALTER TABLE actions ADD COLUMN at BIGINT NOT NULL DEFAULT 0;
