# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
"""The Spark results, and cadence batch's, against cadence stats run on each user's store one by one."""

import csv
import shutil
import subprocess
from functools import partial

import pytest
from pyspark.sql import functions as F

from cadence_spark import Query, statistics_from_samples, statistics_from_stores, write_parquet
from cadence_spark.statistics import _samples_partition, _ship
from conftest import QUERY, typed

COLUMNS = ["user"] + QUERY.columns()


def samples_frame(spark, users, names=None):
    """The users' CSVs (every user's by default) as one DataFrame, the user taken from the file name."""
    paths = [str(users.csv(name)) for name in names] if names else str(users.root / "csv")
    frame = spark.read.csv(paths, header=True)
    return frame.withColumn("user", F.regexp_extract(F.input_file_name(), r"(user-\d+)\.csv", 1))


def ordered(rows):
    """Rows in one order whatever their nulls (merged rows have no source)."""
    return sorted(rows, key=lambda row: [(value is not None, str(value)) for value in row])


def collected(frame, columns=COLUMNS):
    return ordered(tuple(row) for row in frame.select(*columns).collect())


def test_samples_through_one_process_per_partition_equal_stats_per_user(spark, users, binary):
    expected = ordered(users.expected_rows(QUERY))
    # Three days of each user: a day before, the 23-hour DST day, a day after; merged and per source.
    assert len(expected) >= len(users.names) * 3 * 2
    result = statistics_from_samples(samples_frame(spark, users), QUERY, binary=binary, partitions=3)
    assert collected(result) == expected


def test_discrete_hourly_statistics_equal_stats_per_user(spark, users, binary):
    query = Query(type="heartRate", statistics=("average", "minimum", "maximum", "mostRecent"),
                  start="2024-03-31T00:00:00+01:00", end="2024-03-31T12:00:00+02:00", interval="1h",
                  time_zone="Europe/Berlin")
    names = users.names[:20]
    samples = samples_frame(spark, users, names)
    result = statistics_from_samples(samples, query, binary=binary)
    assert collected(result, ["user"] + query.columns()) == ordered(users.expected_rows(query, names))


def test_stores_equal_stats_per_user_and_a_damaged_store_is_a_row_with_its_error(spark, users, binary, tmp_path):
    damaged = tmp_path / "damaged"
    shutil.copytree(users.store(users.names[0]), damaged)
    (damaged / "MANIFEST").write_bytes(b"not a manifest")
    listed = [(name, users.store(name)) for name in users.names]
    listed += [("damaged", str(damaged)), ("missing", str(tmp_path / "nowhere"))]
    stores = spark.createDataFrame(listed, ["user", "store"]).repartition(3)
    result = statistics_from_stores(stores, QUERY, binary=binary).cache()

    assert collected(result.where(F.col("error").isNull())) == ordered(users.expected_rows(QUERY))
    errors = {row.user: row.error for row in result.where(F.col("error").isNotNull()).collect()}
    assert set(errors) == {"damaged", "missing"}
    assert errors["damaged"].startswith(f"{damaged}/MANIFEST: ")
    assert errors["missing"].startswith(f"{tmp_path / 'nowhere'}: ")


def test_cadence_batch_equals_stats_per_user(users, binary, tmp_path):
    output = tmp_path / "daily.csv"
    subprocess.run([binary, "batch", "--stores", str(users.root / "stores"), "--output", str(output), "--jobs", "2",
                    *QUERY.arguments()], check=True, capture_output=True)
    with open(output, newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    assert rows[0] == COLUMNS
    assert [typed(fields, QUERY) for fields in rows[1:]] == users.expected_rows(QUERY)


def test_parquet_is_partitioned_by_the_local_day(spark, users, binary, tmp_path):
    names = users.names[:10]
    result = statistics_from_samples(samples_frame(spark, users, names), QUERY, binary=binary)
    write_parquet(result, str(tmp_path / "daily"))
    assert sorted(path.name for path in (tmp_path / "daily").glob("date=*")) == [
        "date=2024-03-30", "date=2024-03-31", "date=2024-04-01"]
    read = spark.read.parquet(str(tmp_path / "daily"))
    assert collected(read) == ordered(users.expected_rows(QUERY, names))


def test_timestamp_columns_equal_text_dates(spark, users, binary):
    names = users.names[:10]
    # Spark reads the dates as timestamps: they reach cadence as UTC instants.
    frame = samples_frame(spark, users, names)
    frame = frame.withColumn("startDate", F.col("startDate").cast("timestamp")) \
        .withColumn("endDate", F.col("endDate").cast("timestamp"))
    assert dict(frame.dtypes)["startDate"] == "timestamp"
    result = statistics_from_samples(frame, QUERY, binary=binary)
    assert collected(result) == ordered(users.expected_rows(QUERY, names))


def test_unsorted_input_to_one_process_fails_with_cadence_s_reason(spark, users, binary):
    frame = samples_frame(spark, users, users.names[:2])
    # One partition, users interleaved: the sort the integration does is what makes rows consecutive.
    name = _ship(spark, binary)
    header = ["user", "type", "sourceName", "unit", "startDate", "endDate", "value"]
    rows = frame.select(*header).orderBy("startDate").coalesce(1)
    schema = QUERY.schema(with_error=False)
    run = partial(_samples_partition, name, ["batch", "--input", "-", "--format", "csv"] + QUERY.arguments(), schema)
    with pytest.raises(Exception, match="are not consecutive: sort the input by user"):
        rows.mapInArrow(run, schema).collect()
