# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
"""Per-user statistics of a Spark DataFrame, computed by one ``cadence`` process per partition."""

from __future__ import annotations

import csv
import os
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Iterable, Iterator, Optional, Sequence
from zoneinfo import ZoneInfo

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
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
    ``metadata:KEY``); dates are RFC 3339 text or timestamps (a timestamp without a zone is read
    as UTC). It is repartitioned by user into ``partitions`` (default: the cores Spark has) and
    sorted by user within each partition, and each partition's record batches are piped as an
    Arrow stream through one ``cadence batch --input - --format arrow`` process, which holds one
    user's samples at a time in memory, writes no store, and answers with an Arrow stream. Before
    the shuffle, only the samples of the query's type (either spelling) that can reach its window
    are kept.

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
    selected = _select_relevant(samples.select(F.col(user_column), *[F.col(f"`{column}`") for column in columns]),
                                query)
    arranged = selected.repartition(count, user_column).sortWithinPartitions(user_column)
    arguments = ["batch", "--input", "-", "--user-column", user_column, "--format", "arrow"] + query.arguments()
    schema = query.schema(with_error=False)
    return _with_date(arranged.mapInArrow(partial(_samples_partition, name, arguments, schema), schema))


def type_spellings(identifier: str) -> list:
    """Every spelling of a type the import accepts: its short name and its full identifier."""
    for prefix in ("HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier"):
        if identifier.startswith(prefix):
            rest = identifier[len(prefix):]
            return [identifier, rest[:1].lower() + rest[1:]]
    capitalised = identifier[:1].upper() + identifier[1:]
    return [identifier, "HKQuantityTypeIdentifier" + capitalised, "HKCategoryTypeIdentifier" + capitalised]


def _instant(text: str, time_zone: str) -> datetime:
    """A query date (``2024-03-30`` or RFC 3339) as an instant; a date without an offset is local
    to the query's zone, as ``cadence`` reads it."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(time_zone))


def _select_relevant(samples: DataFrame, query: Query) -> DataFrame:
    """The samples that can count in ``query``, chosen before the shuffle: those of its type (either
    spelling) and, with a window, those starting within it or earlier by at most the longest
    sample of the type (so a sample crossing the window's start stays), with a day to spare on
    either side for the zone's offsets. Samples outside the window change no value inside it."""
    of_type = samples.where(F.col("type").isin(type_spellings(query.type)))
    if not (query.start and query.end):
        return of_type
    start, end = (F.col(name).cast("timestamp") for name in ("startDate", "endDate"))
    longest = of_type.select(F.max(F.unix_micros(end) - F.unix_micros(start))).first()[0] or 0
    margin = timedelta(days=1, microseconds=max(0, longest))
    earliest = _instant(query.start, query.time_zone) - margin
    latest = _instant(query.end, query.time_zone) + timedelta(days=1)
    return of_type.where((start >= F.lit(earliest)) & (start <= F.lit(latest)))


def statistics_from_stores(stores: DataFrame, query: Query, *, binary: Optional[str] = None,
                           user_column: str = "user", store_column: str = "store") -> DataFrame:
    """Per-user statistics of Cadence stores: ``stores`` has a user column and a store path column.

    Each partition is piped, as a ``user_id,store_path`` list, through one ``cadence batch --list -
    --format arrow`` process. The stores must be readable at their paths from every executor (a shared file
    system). A store that is missing or damaged gives one row for its user with only ``error``
    set (the path and the reason); the other users' rows have ``error`` null.
    """
    missing = [name for name in (user_column, store_column) if name not in stores.columns]
    if missing:
        raise ValueError(f"the stores lack the column(s) {', '.join(missing)}")
    spark = stores.sparkSession
    name = _ship(spark, binary)
    arguments = ["batch", "--list", "-", "--jobs", "1", "--format", "arrow"] + query.arguments()
    schema = query.schema(with_error=True)
    listed = stores.select(F.col(user_column).alias("user_id"), F.col(store_column).alias("store_path"))
    return _with_date(listed.mapInArrow(partial(_stores_partition, name, arguments, schema), schema))


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

def _samples_partition(binary_name: str, arguments: list, schema: StructType,
                       batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    batches = _nonempty(batches)
    first = next(batches, None)
    if first is None:
        return
    process = _Process(binary_name, arguments, _prepend(first, batches), arrow=True)
    yield from process.arrow_output(schema)
    process.finish(allowed_statuses=(0,))


def _stores_partition(binary_name: str, arguments: list, schema: StructType,
                      batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    batches = _nonempty(batches)
    first = next(batches, None)
    if first is None:
        return
    with tempfile.TemporaryDirectory(prefix="cadence-spark-") as scratch:
        failures = os.path.join(scratch, "failures.csv")
        # Status 1 with a failures file: some stores failed and are reported as rows.
        process = _Process(binary_name, arguments + ["--failures", failures], _prepend(first, batches))
        for batch in process.arrow_output(schema, without=("error",)):
            yield batch.append_column(schema["error"].name, pa.nulls(batch.num_rows, pa.string()))
        if process.finish(allowed_statuses=(0, 1)) == 1:
            if not os.path.exists(failures):
                raise CadenceError(f"cadence exited with status 1: {process.errors()}")
            with open(failures, newline="", encoding="utf-8") as file:
                failed = list(csv.reader(file))[1:]
            row = {field.name: pa.nulls(len(failed), _arrow_type(field.dataType)) for field in schema.fields}
            row["user"] = pa.array([user for user, _, _ in failed], pa.string())
            row["error"] = pa.array([reason for _, _, reason in failed], pa.string())
            yield pa.RecordBatch.from_pydict(row)


class _Process:
    """One running ``cadence``, fed record batches on standard input from a thread of its own, as an
    Arrow stream (``arrow``) or as CSV; its output is read back as record batches, then its exit
    status is checked."""

    def __init__(self, binary_name: str, arguments: list, batches: Iterator[pa.RecordBatch], arrow: bool = False):
        self._arrow = arrow
        path = SparkFiles.get(binary_name)
        if not os.access(path, os.X_OK):
            os.chmod(path, 0o755)
        self._process = subprocess.Popen([path] + arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE)
        self._stderr: list = []
        self._threads = [threading.Thread(target=self._feed, args=(batches,), daemon=True),
                         threading.Thread(target=self._drain, daemon=True)]
        for thread in self._threads:
            thread.start()

    def _feed(self, batches: Iterator[pa.RecordBatch]) -> None:
        try:
            with self._process.stdin as stream:
                if self._arrow:
                    first = next(batches)
                    with pa.ipc.new_stream(stream, first.schema) as writer:
                        writer.write_batch(first)
                        for batch in batches:
                            writer.write_batch(batch)
                    return
                first = _as_text(next(batches))
                with pacsv.CSVWriter(stream, first.schema) as writer:
                    writer.write_batch(first)
                    for batch in batches:
                        writer.write_batch(_as_text(batch))
        except (BrokenPipeError, OSError):
            pass  # cadence stopped reading; its status and standard error say why

    def _drain(self) -> None:
        self._stderr.append(self._process.stderr.read().decode("utf-8", "replace"))

    def arrow_output(self, schema: StructType, without: tuple = ()) -> Iterator[pa.RecordBatch]:
        """The Arrow output's record batches, its zoned timestamps as RFC 3339 text (as ``schema``,
        and ``cadence stats --format csv``, give dates), less the fields named in ``without``."""
        if not self._process.stdout.peek(1):
            return  # nothing written: the exit status and standard error say why
        reader = pa.ipc.open_stream(self._process.stdout)
        names = reader.schema.names
        expected = [name for name in schema.names if name not in without]
        if names != expected:
            raise CadenceError(f"cadence wrote the columns {names} where {expected} were expected")
        for batch in reader:
            columns = [_rfc3339(column) if pa.types.is_timestamp(column.type) else column for column in batch.columns]
            yield pa.RecordBatch.from_arrays(columns, names=names)

    def errors(self) -> str:
        return "".join(self._stderr).strip()

    def finish(self, allowed_statuses: tuple) -> int:
        status = self._process.wait()
        for thread in self._threads:
            thread.join()
        if status not in allowed_statuses:
            raise CadenceError(f"cadence exited with status {status}: {self.errors()}")
        return status


def _nonempty(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    return (batch for batch in batches if batch.num_rows > 0)


def _prepend(first, rest: Iterator) -> Iterator:
    yield first
    yield from rest


def _as_text(batch: pa.RecordBatch) -> pa.RecordBatch:
    """``batch`` as the import CSV is read: timestamps in UTC (a timestamp without a zone taken as
    UTC), which Arrow's CSV writer writes as ``2024-01-01 00:00:00.000000Z``."""
    columns = []
    for column in batch.columns:
        if pa.types.is_timestamp(column.type) and column.type.tz != "UTC":
            column = column.cast(pa.timestamp(column.type.unit, tz="UTC"))
        columns.append(column)
    return pa.RecordBatch.from_arrays(columns, names=batch.schema.names)


def _rfc3339(column: pa.Array) -> pa.Array:
    """Zoned timestamps as ``cadence`` writes dates: RFC 3339 in their zone, a fraction only when
    there is one (three digits for whole milliseconds), ``Z`` for UTC."""
    text = pc.strftime(column, format="%Y-%m-%dT%H:%M:%S%z")
    for pattern, replacement in ((r"\.000000([+-]\d{4})$", r"\1"), (r"(\.\d{3})000([+-]\d{4})$", r"\1\2"),
                                 (r"\+0000$", "Z"), (r"([+-]\d\d)(\d\d)$", r"\1:\2")):
        text = pc.replace_substring_regex(text, pattern=pattern, replacement=replacement)
    return text


def _arrow_type(kind) -> pa.DataType:
    return pa.float64() if isinstance(kind, DoubleType) else pa.string()
