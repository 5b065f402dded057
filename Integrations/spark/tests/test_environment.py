# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
"""Spark's Python workers run the test environment's interpreter, with its packages, not the machine's."""

import sys


def test_workers_run_the_drivers_interpreter_and_see_its_pyarrow(spark):
    import pyarrow

    def worker_facts(_rows):  # nested, so Spark ships it by value: the workers cannot import tests/
        import sys as worker_sys

        import pyarrow as worker_pyarrow

        yield (worker_sys.executable, worker_pyarrow.__version__)

    facts = spark.sparkContext.parallelize(range(2), 2).mapPartitions(worker_facts).collect()
    assert len(facts) == 2, "a worker did not answer"
    for executable, version in facts:
        assert executable == sys.executable, f"a Spark worker ran {executable}, not the driver's {sys.executable}"
        assert version == pyarrow.__version__
