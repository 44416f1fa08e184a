"""A throwaway PostgreSQL cluster for tests: initdb in a temporary directory, a free port.

The server refuses to run as root, so as root the cluster belongs to the `postgres` system
user (the Debian package makes it; without it one `mcbridge-pg` system user is created
with useradd); otherwise it runs as the current user. It listens on 127.0.0.1 only,
with password (scram) logins, and is stopped by the postmaster's PID.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

BIN = Path(os.environ.get("MCBRIDGE_PG_BIN", "/usr/lib/postgresql/15/bin"))
USER = "mcbridge"
PASSWORD = "s3cret-test"


def missing_reason() -> str | None:
    if not (BIN / "initdb").exists() or not (BIN / "pg_ctl").exists():
        return f"no PostgreSQL server binaries in {BIN} (install postgresql-15 or set MCBRIDGE_PG_BIN)"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _os_user() -> str | None:
    """The system user to run the server as, when we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "mcbridge-pg"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    # Two test workers may get here at once: useradd's "already exists" (9) is the other one's success.
    made = subprocess.run(["useradd", "--system", "--no-create-home", "mcbridge-pg"], check=False)
    if made.returncode not in (0, 9):
        raise RuntimeError(f"useradd mcbridge-pg failed (exit {made.returncode})")
    return "mcbridge-pg"


class Cluster:
    def __init__(self, fsync: bool = False) -> None:
        """`fsync=False` for tests (speed, the data is thrown away); benches keep it on."""
        self.fsync = fsync
        self.os_user = _os_user()
        self.dir = Path(tempfile.mkdtemp(prefix="mcbridge-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        if self.os_user:
            info = pwd.getpwnam(self.os_user)
            os.chown(self.dir, info.pw_uid, info.pw_gid)
        pwfile = self.dir / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self.os_user:
            os.chown(pwfile, pwd.getpwnam(self.os_user).pw_uid, -1)
        self._run(
            str(BIN / "initdb"), "-D", str(self.data), "-U", USER, f"--pwfile={pwfile}",
            "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--no-locale",
        )
        self._start_on_a_free_port()

    def _start_on_a_free_port(self, attempts: int = 3) -> None:
        """The port is free when picked, but another process (a parallel test worker) may bind it
        before the server does: then pick another."""
        for attempt in range(attempts):
            try:
                self.start()
                return
            except subprocess.CalledProcessError:
                if attempt == attempts - 1 or self._failed_for_another_reason():
                    raise
                self.port = _free_port()

    def _failed_for_another_reason(self) -> bool:
        """Whether the failed start was for another reason than the port (then retrying is pointless)."""
        log = self.dir / "log"
        text = log.read_text(errors="replace") if log.exists() else ""
        return "could not bind" not in text and "Address already in use" not in text

    def _run(self, *argv: str) -> None:
        cmd = list(argv)
        if self.os_user:
            cmd = ["runuser", "-u", self.os_user, "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def url(self, db: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        if not self.fsync:
            opts += " -c fsync=off"
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w",
                  "-t", "60", "start")

    def pid(self) -> int | None:
        pidfile = self.data / "postmaster.pid"
        return int(pidfile.read_text().split()[0]) if pidfile.exists() else None

    def stop(self) -> None:
        """Fast shutdown by the postmaster's PID; waits (60 s at most) until it is gone."""
        pid = self.pid()
        if pid is None:
            return
        os.kill(pid, signal.SIGINT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)

    def create_db(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
