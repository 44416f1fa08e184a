"""Player stats: finished matches, per-game ratings with history, leaderboards.

One store interface (`store.Store`) over SQLite (default, beside the journal) or PostgreSQL
(many controllers, one store), the same schema through versioned migrations
(`migrations.py`). Tables never wait for it: the recorder (`recorder.py`) reads finished
matches on its own thread, queues them durably in an outbox beside the journal
(`outbox.py`), and writes them when the store answers.
"""
