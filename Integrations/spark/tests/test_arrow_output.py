# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
"""pyarrow reads what ``cadence --format arrow`` writes: the columns and values of its CSV output."""

import csv
import io
import subprocess
from datetime import datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc as ipc

FIXTURES = Path(__file__).resolve().parents[3] / "Tests" / "Fixtures" / "arrow"
QUERY = ["--type", "stepCount", "--from", "2024-01-01", "--to", "2024-01-04", "--interval", "1h",
         "--time-zone", "Europe/Berlin", "--options", "sum,separateBySource"]


def output(binary, *arguments) -> bytes:
    return subprocess.run([binary, *arguments], capture_output=True, check=True).stdout


def test_batch_statistics_read_as_the_csv_rows(binary):
    table = ipc.open_stream(output(binary, "batch", "--input", str(FIXTURES / "pyarrow-dictionary.arrows"),
                                   "--format", "arrow", *QUERY)).read_all()
    assert table.schema == pa.schema([("user", pa.string()), ("startDate", pa.timestamp("us", tz="Europe/Berlin")),
                                      ("endDate", pa.timestamp("us", tz="Europe/Berlin")), ("source", pa.string()),
                                      ("sum", pa.float64())])
    rows = list(csv.DictReader(io.StringIO(output(binary, "batch", "--input", str(FIXTURES / "samples.csv"),
                                                  *QUERY).decode())))
    assert table.num_rows == len(rows) > 10
    for read, expected in zip(table.to_pylist(), rows):
        assert read["user"] == expected["user"]
        assert read["startDate"] == datetime.fromisoformat(expected["startDate"])
        assert read["endDate"] == datetime.fromisoformat(expected["endDate"])
        assert read["source"] == (expected["source"] or None)
        assert read["sum"] == (float(expected["sum"]) if expected["sum"] else None)


def test_an_empty_input_is_a_stream_with_the_columns_and_no_row(binary):
    table = ipc.open_stream(output(binary, "batch", "--input", str(FIXTURES / "pyarrow-empty.arrows"),
                                   "--format", "arrow", *QUERY)).read_all()
    assert table.schema.names == ["user", "startDate", "endDate", "source", "sum"]
    assert table.num_rows == 0


def test_samples_read_as_the_import_columns(binary, tmp_path):
    store = str(tmp_path / "store")
    subprocess.run([binary, "import", str(FIXTURES / "pyarrow-plain.arrow"), "--store", store], check=True,
                   capture_output=True)
    table = ipc.open_stream(output(binary, "samples", "--store", store, "--type", "stepCount",
                                   "--format", "arrow")).read_all()
    assert table.schema.names[:10] == ["type", "sourceName", "unit", "startDate", "endDate", "value", "uuid",
                                       "sourceVersion", "device", "creationDate"]
    assert table.schema.field("startDate").type == pa.timestamp("us", tz="UTC")
    rows = list(csv.DictReader(io.StringIO(output(binary, "samples", "--store", store, "--type", "stepCount",
                                                  "--format", "csv").decode())))
    assert table.num_rows == len(rows) > 10
    for read, expected in zip(table.to_pylist(), rows):
        assert read["uuid"] == expected["uuid"]
        assert read["value"] == float(expected["value"])
        assert read["startDate"] == datetime.fromisoformat(expected["startDate"])
        assert read["sourceVersion"] == (expected["sourceVersion"] or None)
        assert read["device"] == (expected["device"] or None)


def test_batch_over_stores_reads_as_the_csv_rows(binary, users):
    names = users.names[:3]
    stores = Path(users.root) / "arrow-stores"
    stores.mkdir(exist_ok=True)
    for name in names:
        link = stores / name
        if not link.exists():
            link.symlink_to(users.store(name))
    table = ipc.open_stream(output(binary, "batch", "--stores", str(stores), "--format", "arrow", *QUERY)).read_all()
    assert table.schema == pa.schema([("user", pa.string()), ("startDate", pa.timestamp("us", tz="Europe/Berlin")),
                                      ("endDate", pa.timestamp("us", tz="Europe/Berlin")), ("source", pa.string()),
                                      ("sum", pa.float64())])
    rows = list(csv.DictReader(io.StringIO(output(binary, "batch", "--stores", str(stores), *QUERY).decode())))
    assert table.num_rows == len(rows) > 3
    for read, expected in zip(table.to_pylist(), rows):
        assert read["user"] == expected["user"]
        assert read["startDate"] == datetime.fromisoformat(expected["startDate"])
        assert read["sum"] == (float(expected["sum"]) if expected["sum"] else None)


def test_changes_read_as_the_json_page(binary, tmp_path):
    import json

    store = str(tmp_path / "store")
    subprocess.run([binary, "import", str(FIXTURES / "pyarrow-plain.arrow"), "--store", store], check=True,
                   capture_output=True)
    page = json.loads(output(binary, "changes", "--store", store, "--type", "stepCount", "--limit", "5"))
    reader = ipc.open_stream(output(binary, "changes", "--store", store, "--type", "stepCount", "--limit", "5",
                                    "--format", "arrow"))
    table = reader.read_all()
    assert table.schema.metadata == {b"anchor": page["anchor"].encode(), b"hasMore": b"true"}
    assert table.schema.names[:3] == ["change", "type", "sourceName"]
    assert table.schema.field("startDate").type == pa.timestamp("us", tz="UTC")
    assert table.column("change").to_pylist() == ["added"] * 5
    assert table.column("uuid").to_pylist() == [sample["uuid"] for sample in page["samples"]]
    assert table.column("value").to_pylist() == [sample["value"] for sample in page["samples"]]
