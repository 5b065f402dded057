# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
"""Per-user statistics of a Spark DataFrame, computed by one ``cadence`` process per partition."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from typing import Iterable, Iterator, Optional, Sequence

from pyspark import SparkFiles
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import DoubleType, StringType, StructField, StructType

#: The import CSV's required columns.
REQUIRED_COLUMNS = ("type", "sourceName", "unit", "startDate", "endDate", "value")
#: The import CSV's optional columns (``metadata:KEY`` columns are passed on too).
OPTIONAL_COLUMNS = ("uuid", "sourceVersion", "device", "creationDate")
#: The statistics ``cadence`` computes, in the order of its output columns.
STATISTICS = ("sum", "average", "minimum", "maximum", "mostRecent", "duration")


class CadenceError(RuntimeError):
    """A ``cadence`` process failed; the message holds its exit status and standard error."""


@dataclass(frozen=True)
class Query:
    """One statistics query: the options of ``cadence stats``.

    ``statistics`` names what to compute (``sum``, ``average``, ``minimum``, ``maximum``,
    ``mostRecent``, ``duration``). With ``interval`` (``1d``, ``1h``, ``1w`` …), every interval
    of [``start``, ``end``) gets a row, empty ones included; without it, one total per user.
    """

    type: str
    statistics: Sequence[str]
    start: Optional[str] = None
    end: Optional[str] = None
    interval: Optional[str] = None
    time_zone: str = "UTC"
    anchor: Optional[str] = None
    separate_by_source: bool = False
    priority: Optional[Sequence[str]] = None
    unit: Optional[str] = None

    def __post_init__(self) -> None:
        unknown = [name for name in self.statistics if name not in STATISTICS]
        if unknown or not self.statistics:
            raise ValueError(f"statistics must be some of {', '.join(STATISTICS)}; got {list(self.statistics)}")
        if self.interval and not (self.start and self.end):
            raise ValueError("an interval needs both start and end")

    def arguments(self) -> list[str]:
        """The query as ``cadence stats`` / ``cadence batch`` options."""
        options = list(self.statistics) + (["separateBySource"] if self.separate_by_source else [])
        arguments = ["--type", self.type, "--time-zone", self.time_zone, "--options", ",".join(options)]
        for flag, value in (("--from", self.start), ("--to", self.end), ("--interval", self.interval),
                            ("--anchor", self.anchor), ("--unit", self.unit)):
            if value is not None:
                arguments += [flag, value]
        if self.priority:
            arguments += ["--priority", ",".join(self.priority)]
        return arguments

    def columns(self) -> list[str]:
        """The output's columns after ``user``, as ``cadence batch`` writes them."""
        columns = ["startDate", "endDate"] + (["source"] if self.separate_by_source else [])
        for name in STATISTICS:
            if name in self.statistics:
                columns.append(name)
                if name == "mostRecent":
                    columns += ["mostRecentStartDate", "mostRecentEndDate"]
        return columns

    def schema(self, with_error: bool) -> StructType:
        """The result's schema: statistics as doubles, dates as RFC 3339 text in the query's zone."""
        fields = [StructField("user", StringType(), False)]
        for column in self.columns():
            kind = DoubleType() if column in STATISTICS else StringType()
            fields.append(StructField(column, kind, True))
        if with_error:
            fields.append(StructField("error", StringType(), True))
        return StructType(fields)


def statistics_from_samples(samples: DataFrame, query: Query, *, binary: Optional[str] = None,
                            user_column: str = "user", partitions: Optional[int] = None) -> DataFrame:
    """Per-user statistics of ``samples``: one row per user and interval (and source).

    ``samples`` has a user column and the import CSV's columns (``type, sourceName, unit,
    startDate, endDate, value``; optionally ``uuid, sourceVersion, device, creationDate`` and
    ``metadata:KEY``). It is repartitioned by user and sorted by user within each partition, and
    each partition is piped through one ``cadence batch --input -`` process, which holds one
    user's samples at a time in memory and writes no store.

    ``binary`` is the ``cadence`` executable on the driver, shipped to the executors with
    ``SparkContext.addFile``; leave it out when the job was submitted with ``--files cadence``.
    The result has a ``date`` column (the local day an interval starts on) for
    :func:`write_parquet`.
    """
    missing = [name for name in (user_column,) + REQUIRED_COLUMNS if name not in samples.columns]
    if missing:
        raise ValueError(f"the samples lack the column(s) {', '.join(missing)}")
    columns = [name for name in REQUIRED_COLUMNS + OPTIONAL_COLUMNS if name in samples.columns]
    columns += [name for name in samples.columns if name.startswith("metadata:")]
    spark = samples.sparkSession
    name = _ship(spark, binary)
    count = partitions or spark.sparkContext.defaultParallelism
    arranged = (samples.select(F.col(user_column), *[F.col(f"`{column}`") for column in columns])
                .repartition(count, user_column)
                .sortWithinPartitions(user_column))
    arguments = ["batch", "--input", "-", "--user-column", user_column, "--format", "csv"] + query.arguments()
    run = partial(_samples_partition, name, arguments, [user_column] + columns, query.columns())
    rows = arranged.rdd.mapPartitions(run)
    return _with_date(spark.createDataFrame(rows, query.schema(with_error=False)))


def statistics_from_stores(stores: DataFrame, query: Query, *, binary: Optional[str] = None,
                           user_column: str = "user", store_column: str = "store") -> DataFrame:
    """Per-user statistics of Cadence stores: ``stores`` has a user column and a store path column.

    Each partition is piped, as a ``user_id,store_path`` list, through one ``cadence batch --list -``
    process. The stores must be readable at their paths from every executor (a shared file
    system). A store that is missing or damaged gives one row for its user with only ``error``
    set (the path and the reason); the other users' rows have ``error`` null.
    """
    missing = [name for name in (user_column, store_column) if name not in stores.columns]
    if missing:
        raise ValueError(f"the stores lack the column(s) {', '.join(missing)}")
    spark = stores.sparkSession
    name = _ship(spark, binary)
    arguments = ["batch", "--list", "-", "--jobs", "1", "--format", "csv"] + query.arguments()
    run = partial(_stores_partition, name, arguments, query.columns())
    rows = stores.select(user_column, store_column).rdd.mapPartitions(run)
    return _with_date(spark.createDataFrame(rows, query.schema(with_error=True)))


def write_parquet(statistics: DataFrame, path: str, mode: str = "overwrite") -> None:
    """Writes a result of this module as Parquet, partitioned by ``date``."""
    statistics.write.mode(mode).partitionBy("date").parquet(path)


# MARK: Driver side

_shipped: set = set()


def _ship(spark: SparkSession, binary: Optional[str]) -> str:
    """Ships ``binary`` to the executors (once per context) and returns the name they find it by."""
    if binary is None:
        return "cadence"
    path = os.path.abspath(binary)
    if not os.access(path, os.X_OK):
        raise FileNotFoundError(f"{path}: no cadence executable here")
    key = (id(spark.sparkContext), path)
    if key not in _shipped:
        spark.sparkContext.addFile(path)
        _shipped.add(key)
    return os.path.basename(path)


def _with_date(frame: DataFrame) -> DataFrame:
    # The first ten characters of an RFC 3339 date are its local day in the query's zone.
    return frame.withColumn("date", F.to_date(F.substring("startDate", 1, 10)))


# MARK: Executor side

def _samples_partition(binary_name: str, arguments: list, header: list, columns: list,
                       rows: Iterable) -> Iterator[tuple]:
    records = (tuple(_text(value) for value in row) for row in rows)
    first = next(records, None)
    if first is None:
        return
    output = _pipe(binary_name, arguments, header, _prepend(first, records), allowed_statuses=(0,))
    for fields in output.rows:
        yield _typed(fields, columns)
    output.finish()


def _stores_partition(binary_name: str, arguments: list, columns: list, rows: Iterable) -> Iterator[tuple]:
    records = ((_text(row[0]), _text(row[1])) for row in rows)
    first = next(records, None)
    if first is None:
        return
    with tempfile.TemporaryDirectory(prefix="cadence-spark-") as scratch:
        failures = os.path.join(scratch, "failures.csv")
        # Status 1 with a failures file: some stores failed and are reported as rows.
        output = _pipe(binary_name, arguments + ["--failures", failures], ["user_id", "store_path"],
                       _prepend(first, records), allowed_statuses=(0, 1))
        for fields in output.rows:
            yield _typed(fields, columns) + (None,)
        status = output.finish()
        if status == 1:
            if not os.path.exists(failures):
                raise CadenceError(f"cadence exited with status 1: {output.errors()}")
            with open(failures, newline="", encoding="utf-8") as file:
                for user, store, reason in list(csv.reader(file))[1:]:
                    yield (user,) + (None,) * len(columns) + (reason,)


class _Process:
    """A running ``cadence``: its output rows (header checked), then its exit status."""

    def __init__(self, process: subprocess.Popen, threads: list, stderr: list, allowed: tuple):
        self._process = process
        self._threads = threads
        self._stderr = stderr
        self._allowed = allowed
        self.rows = self._read()

    def _read(self) -> Iterator[list]:
        reader = csv.reader(io.TextIOWrapper(self._process.stdout, encoding="utf-8", newline=""))
        next(reader, None)  # the header
        yield from reader

    def errors(self) -> str:
        return "".join(self._stderr).strip()

    def finish(self) -> int:
        status = self._process.wait()
        for thread in self._threads:
            thread.join()
        if status not in self._allowed:
            raise CadenceError(f"cadence exited with status {status}: {self.errors()}")
        return status


def _pipe(binary_name: str, arguments: list, header: list, records: Iterable, allowed_statuses: tuple) -> _Process:
    """Starts one ``cadence`` process and feeds it ``records`` as CSV from a thread of its own."""
    path = SparkFiles.get(binary_name)
    if not os.access(path, os.X_OK):
        os.chmod(path, 0o755)
    process = subprocess.Popen([path] + arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    stderr: list = []

    def feed() -> None:
        try:
            with io.TextIOWrapper(process.stdin, encoding="utf-8", newline="") as stream:
                writer = csv.writer(stream, lineterminator="\n")
                writer.writerow(header)
                writer.writerows(records)
        except BrokenPipeError:
            pass  # cadence stopped reading; its status and standard error say why

    def drain() -> None:
        stderr.append(process.stderr.read().decode("utf-8", "replace"))

    threads = [threading.Thread(target=feed, daemon=True), threading.Thread(target=drain, daemon=True)]
    for thread in threads:
        thread.start()
    return _Process(process, threads, stderr, allowed_statuses)


def _prepend(first, rest: Iterator) -> Iterator:
    yield first
    yield from rest


def _text(value) -> str:
    """A field as the import CSV writes it: timestamps in RFC 3339 UTC, nulls empty."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        moment = value.astimezone(timezone.utc) if value.tzinfo is None else value
        return moment.isoformat()
    return str(value)


def _typed(fields: list, columns: list) -> tuple:
    if len(fields) != len(columns) + 1:
        raise CadenceError(f"cadence wrote {len(fields)} fields where {len(columns) + 1} were expected: {fields}")
    values = [fields[0]]
    for column, text in zip(columns, fields[1:]):
        if text == "":
            values.append(None)
        else:
            values.append(float(text) if column in STATISTICS else text)
    return tuple(values)
