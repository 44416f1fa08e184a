"""The one place the tables read rules results, so a change of the core's result type
(a dict today, a typed `Result` with `.to_json()` soon) is a change here only."""

from __future__ import annotations

import json
from typing import Any

from mcbridge.core import State


def result_json(state: State) -> dict[str, Any]:
    """The match result as JSON-able data, with its "standings" rows."""
    result: Any = state.result()
    if hasattr(result, "to_json"):
        data = result.to_json()
        return dict(data) if isinstance(data, dict) else dict(json.loads(data))
    return dict(result)


def standings(state: State) -> list[dict[str, Any]]:
    return list(result_json(state).get("standings", []))
