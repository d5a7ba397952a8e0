"""Every Python example in docs/python.md runs as written."""

import os
import re
import time

import pytest

from conftest import REPO

DOC = REPO / "docs" / "python.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index, tmp_path, capsys):
    if "ray" in BLOCKS[index]:
        ray = pytest.importorskip("ray")
        # Started here (the example would start it itself) so that a start missing its deadline on a loaded machine
        # can be retried once.
        try:
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        except Exception:
            ray.shutdown()
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    os.chdir(tmp_path)
    start = time.perf_counter()
    exec(compile(BLOCKS[index], f"docs/python.md example {index + 1}", "exec"), {"__name__": "__doc_example__"})
    if "ray" in BLOCKS[index]:
        import ray

        ray.shutdown()
    with capsys.disabled():
        print(f"\n  docs/python.md example {index + 1}: {time.perf_counter() - start:.1f} s")
