"""The stats schema, as numbered migrations applied in order; both backends run the same list.

`{pk}` is the dialect's auto-numbered key (SQLite INTEGER PRIMARY KEY, PostgreSQL BIGSERIAL).
A migration is never edited once released: a change is a new entry at the end.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: matches, their seats, per-game ratings and each match's rating change
    """
    CREATE TABLE matches (
        id {pk},
        journal_id TEXT NOT NULL,
        match_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        arena TEXT NOT NULL,
        started DOUBLE PRECISION NOT NULL,
        finished DOUBLE PRECISION NOT NULL,
        duration DOUBLE PRECISION NOT NULL,
        UNIQUE (journal_id, match_id)
    );
    CREATE TABLE results (
        match_pk BIGINT NOT NULL REFERENCES matches(id),
        seat INTEGER NOT NULL,
        player TEXT NOT NULL,
        is_bot BOOLEAN NOT NULL,
        rank INTEGER NOT NULL,
        score DOUBLE PRECISION,
        detail TEXT NOT NULL,
        PRIMARY KEY (match_pk, seat)
    );
    CREATE INDEX results_player ON results (player);
    CREATE TABLE ratings (
        game TEXT NOT NULL,
        player TEXT NOT NULL,
        is_bot BOOLEAN NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        ordinal DOUBLE PRECISION NOT NULL,
        matches INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (game, player)
    );
    CREATE INDEX ratings_board ON ratings (game, is_bot, ordinal DESC);
    CREATE TABLE rating_history (
        match_pk BIGINT NOT NULL REFERENCES matches(id),
        game TEXT NOT NULL,
        player TEXT NOT NULL,
        mu_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (match_pk, player)
    );
    CREATE INDEX rating_history_player ON rating_history (player, match_pk);
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)
