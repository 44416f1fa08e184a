"""The default bound on values in a hand-edited file (core/yamlmarks.py), at its edge.

Written to kill a mutant bench/mutation.py found surviving: the other tests pass their own
`max_values`, so the default itself was never checked.
"""

from __future__ import annotations

import pytest

from mcbridge.core.yamlmarks import MAX_VALUES, YamlError, load_marked


def test_the_default_limit_is_fifty_thousand_values_the_list_itself_included() -> None:
    assert MAX_VALUES == 50_000
    just_fits = "[" + "0, " * (MAX_VALUES - 1) + "]"
    assert len(load_marked(just_fits).data) == MAX_VALUES - 1
    with pytest.raises(YamlError, match=r"^<string>:1:\d+: more than 50000 values; is this the right file\?$"):
        load_marked("[" + "0, " * MAX_VALUES + "]")
