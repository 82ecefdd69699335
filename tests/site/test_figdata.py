"""figdata.dumps: builders' numpy values become plain JSON, the same bytes every time, and a
non-finite number stops the build instead of shipping a NaN the page would draw as nothing."""

import math

import numpy as np
import pytest

from k3explainer.site.figdata import dumps, to_jsonable


def test_numpy_values_become_the_plain_values_they_hold():
    data = {
        "a": np.arange(3, dtype=np.int64),
        "b": np.float64(0.1),
        "c": np.float32(0.5),
        "d": (1, np.int32(2)),
        3: [np.bool_(True), None, "x"],
    }
    assert to_jsonable(data) == {"a": [0, 1, 2], "b": 0.1, "c": 0.5, "d": [1, 2], "3": [True, None, "x"]}
    assert type(to_jsonable(np.float64(0.1))) is float
    assert dumps(data) == '{"3":[true,null,"x"],"a":[0,1,2],"b":0.1,"c":0.5,"d":[1,2]}'


@pytest.mark.parametrize("bad", [math.nan, math.inf, np.float64("nan"), np.array([1.0, -np.inf]), [[0.0, math.nan]]])
def test_a_non_finite_number_is_refused(bad):
    with pytest.raises(ValueError, match="non-finite number"):
        dumps({"values": bad})
