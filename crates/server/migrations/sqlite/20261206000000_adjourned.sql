-- Games adjourned because every person in them has been gone a while
-- (docs/server.md, "Limits"): not resumed at start, taken up again when a
-- person comes back, ended once adjourned too long. `since` is Unix
-- milliseconds.
CREATE TABLE adjourned (
    game  TEXT    PRIMARY KEY NOT NULL REFERENCES games (id),
    since INTEGER NOT NULL
);

CREATE INDEX adjourned_by_since ON adjourned (since);
