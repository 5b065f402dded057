# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
"""Generated users (a CSV and an imported store each), the cadence binary, and a local Spark."""

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent
REPOSITORY = PACKAGE.parent.parent
# Spark's Python workers import cadence_spark from here too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE), os.environ.get("PYTHONPATH")]))
sys.path.insert(0, str(PACKAGE))

from cadence_spark import Query  # noqa: E402

#: How many users the tests generate (a few hundred by default; fewer for a quick run).
USERS = int(os.environ.get("CADENCE_SPARK_TEST_USERS", "200"))

#: Daily step totals, sources apart, across the spring DST change in Berlin.
QUERY = Query(type="stepCount", statistics=("sum",), start="2024-03-30", end="2024-04-02", interval="1d",
              time_zone="Europe/Berlin", separate_by_source=True)


def cadence_binary() -> str:
    """``$CADENCE_BINARY``, else the release build, else the debug build of this repository."""
    candidates = [os.environ.get("CADENCE_BINARY")] + [
        str(REPOSITORY / ".build" / configuration / "cadence") for configuration in ("release", "debug")]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise RuntimeError("no cadence binary: build it with `swift build` or set CADENCE_BINARY")


def run(binary: str, *arguments: str) -> str:
    result = subprocess.run([binary, *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"cadence {' '.join(arguments)} failed: {result.stderr}")
    return result.stdout


class Users:
    """``count`` generated users, ``user-0000`` …: ``csv/user-N.csv`` and ``stores/user-N``."""

    def __init__(self, binary: str, root: Path, count: int):
        self.binary = binary
        self.root = root
        self.names = [f"user-{index:04d}" for index in range(count)]
        self._expected: dict = {}
        (root / "csv").mkdir()
        (root / "stores").mkdir()
        for index, name in enumerate(self.names):
            samples = self.csv(name)
            run(binary, "generate", "--profile", "realistic", "--days", "2", "--seed", str(index + 1),
                "--start", "2024-03-30T09:00:00+01:00", "--format", "csv", "--output", str(samples))
            run(binary, "import", str(samples), "--store", self.store(name))

    def csv(self, name: str) -> Path:
        return self.root / "csv" / f"{name}.csv"

    def store(self, name: str) -> str:
        return str(self.root / "stores" / name)

    def expected_rows(self, query: Query, names=None) -> list:
        """``cadence stats`` on each user's store, one by one, as typed rows with the user first."""
        rows = []
        for name in names or self.names:
            if (query, name) not in self._expected:
                output = run(self.binary, "stats", "--store", self.store(name), "--format", "csv", *query.arguments())
                self._expected[query, name] = [typed([name] + fields, query)
                                               for fields in list(csv.reader(output.splitlines()))[1:]]
            rows += self._expected[query, name]
        return rows


def typed(fields: list, query: Query) -> tuple:
    """A CSV row as the Spark result holds it: statistics as floats, empty fields as None."""
    values = [fields[0]]
    for column, text in zip(query.columns(), fields[1:]):
        values.append(None if text == "" else float(text) if column in ("sum", "average", "minimum", "maximum",
                                                                          "mostRecent", "duration") else text)
    return tuple(values)


@pytest.fixture(scope="session")
def binary() -> str:
    return cadence_binary()


@pytest.fixture(scope="session")
def users(binary, tmp_path_factory) -> Users:
    return Users(binary, tmp_path_factory.mktemp("users"), USERS)


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    # Spark starts its Python workers with `python3` from PATH unless told otherwise: on a machine
    # whose own Python lacks pyarrow the workers would fail while the driver, in this environment,
    # works. The workers run this very interpreter, and test_environment checks that they do.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (SparkSession.builder.master("local[2]").appName("cadence-spark-tests")
               .config("spark.pyspark.python", sys.executable)
               .config("spark.pyspark.driver.python", sys.executable)
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.driver.memory", "1g")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
