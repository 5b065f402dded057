"""Writes the Arrow fixtures Cadence's tests read, with pyarrow and Polars, from one set of rows.

Run from this directory with pyarrow and polars installed (in a virtual environment):

    python3 -m venv /tmp/arrow-venv && /tmp/arrow-venv/bin/pip install pyarrow polars
    /tmp/arrow-venv/bin/python make_fixtures.py

samples.csv holds the same rows as import CSV with a user column: each Arrow fixture must give
the same statistics as it. The rows are made by a seeded generator, so the files are stable.
"""

import csv
import random
from datetime import datetime, timedelta, timezone

import polars as pl
import pyarrow as pa
import pyarrow.ipc as ipc

STEP = "HKQuantityTypeIdentifierStepCount"
WATCH, PHONE = "Alex’s Apple Watch", "Alex’s iPhone"
COLUMNS = ["user", "type", "sourceName", "unit", "startDate", "endDate", "value", "sourceVersion", "device"]


def rows():
    """Three users' steps from two overlapping sources, some crossing midnight (UTC), and heart rates."""
    generator = random.Random(7)
    result = []
    for user in ["u1", "u2, \"three\"", "u3"]:
        start = datetime(2024, 1, 1, 21, 0, tzinfo=timezone.utc)
        for index in range(12):
            begin = start + timedelta(minutes=37 * index + generator.randint(0, 9))
            length = timedelta(minutes=generator.randint(1, 45), microseconds=generator.randint(0, 999) * 1000)
            for source in [WATCH, PHONE] if index % 3 else [WATCH]:
                result.append({
                    "user": user, "type": "stepCount" if index % 2 else STEP, "sourceName": source, "unit": "count",
                    "startDate": begin, "endDate": begin + length, "value": float(generator.randint(5, 900)),
                    "sourceVersion": None if index % 4 == 0 else "10.1",
                    "device": None if source == PHONE else "<<HKDevice>, name:Apple Watch>",
                })
            if index % 5 == 0:
                result.append({
                    "user": user, "type": "HKQuantityTypeIdentifierHeartRate", "sourceName": WATCH, "unit": "count/min",
                    "startDate": begin, "endDate": begin, "value": float(generator.randint(50, 120)),
                    "sourceVersion": "10.1", "device": None,
                })
    return result


def rfc3339(date):
    return date.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"


def table(data, *, timestamp=pa.timestamp("us", tz="UTC"), dictionary=False, text_dates=False):
    columns = {name: [row[name] for row in data] for name in COLUMNS}
    arrays = []
    for name in COLUMNS:
        values = columns[name]
        if name in ("startDate", "endDate"):
            if text_dates:
                arrays.append(pa.array([rfc3339(value) for value in values], pa.string()))
            else:
                naive = [value.replace(tzinfo=None) for value in values]
                arrays.append(pa.array(naive, pa.timestamp("us")).cast(timestamp))
        elif name == "value":
            arrays.append(pa.array(values, pa.float64()))
        else:
            array = pa.array(values, pa.string())
            if dictionary and name in ("user", "sourceName", "type", "unit"):
                array = array.dictionary_encode()
            arrays.append(array)
    return pa.Table.from_arrays(arrays, names=COLUMNS)


def write_stream(path, data, batch_rows, **options):
    source = table(data, **options)
    with ipc.new_stream(path, source.schema) as writer:
        for batch in source.to_batches(max_chunksize=batch_rows):
            writer.write_batch(batch)


def main():
    data = rows()
    with open("samples.csv", "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in data:
            writer.writerow([rfc3339(row[name]) if name in ("startDate", "endDate") else
                             ("" if row[name] is None else row[name]) for name in COLUMNS])
    # pyarrow: dictionary text, zoned microseconds, several batches.
    write_stream("pyarrow-dictionary.arrows", data, 7, dictionary=True)
    # pyarrow: plain text, naive nanoseconds (read as UTC), one batch per 16 rows, as a file.
    plain = table(data, timestamp=pa.timestamp("ns"))
    with ipc.new_file("pyarrow-plain.arrow", plain.schema) as writer:
        for batch in plain.to_batches(max_chunksize=16):
            writer.write_batch(batch)
    # pyarrow: dates as RFC 3339 text.
    write_stream("pyarrow-text-dates.arrows", data, 1000, text_dates=True)
    # pyarrow: a schema and no batch.
    write_stream("pyarrow-empty.arrows", [], 10, dictionary=True)
    # Polars, at its oldest compatibility level (large_utf8 text), zoned milliseconds (the rows
    # have no finer part), as a file and as a stream with the source as a categorical.
    frame = pl.from_arrow(table(data, timestamp=pa.timestamp("ms", tz="Europe/Berlin")))
    frame.write_ipc("polars.arrow", compat_level=pl.CompatLevel.oldest())
    frame.with_columns(pl.col("sourceName").cast(pl.Categorical)).write_ipc_stream(
        "polars-categorical.arrows", compat_level=pl.CompatLevel.oldest())

if __name__ == "__main__":
    main()
