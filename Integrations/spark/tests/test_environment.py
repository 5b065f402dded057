# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
"""Spark's Python workers run the test environment's interpreter, with its packages, not the machine's."""

import os
import sys


def _where(executable, prefix):
    # Paths normalised (`..` folded) but links kept: a venv's python is a link to the machine's.
    return os.path.normpath(os.path.abspath(executable)), os.path.normpath(os.path.abspath(prefix))


def test_workers_run_the_drivers_interpreter_and_see_its_pyarrow(spark):
    import pyarrow

    def worker_facts(_rows):  # nested, so Spark ships it by value: the workers cannot import tests/
        import sys as worker_sys

        import pyarrow as worker_pyarrow

        yield (worker_sys.executable, worker_sys.prefix, worker_pyarrow.__version__)

    facts = spark.sparkContext.parallelize(range(2), 2).mapPartitions(worker_facts).collect()
    assert len(facts) == 2, "a worker did not answer"
    for executable, prefix, version in facts:
        assert _where(executable, prefix) == _where(sys.executable, sys.prefix), \
            f"a Spark worker ran {executable} (in {prefix}), not the driver's {sys.executable} (in {sys.prefix})"
        assert version == pyarrow.__version__
