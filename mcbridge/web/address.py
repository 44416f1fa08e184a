"""`--web ADDR`: where the web view listens (its own module: the CLI checks it while parsing)."""

from __future__ import annotations


def parse_addr(addr: str) -> tuple[str, int]:
    """'127.0.0.1:8080', ':8080' (127.0.0.1) or 'HOST:0' (a free port) -> (host, port);
    ValueError says what is legal."""
    host, _, port = addr.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--web {addr!r}: give HOST:PORT, such as 127.0.0.1:8080 (port 0 picks a free one)")
    return host or "127.0.0.1", int(port)
