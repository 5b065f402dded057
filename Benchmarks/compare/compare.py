#!/usr/bin/env python3
"""Cadence side by side with DuckDB and Polars, and `cadence import` beside healthkit-to-sqlite.

What is compared, all from one run on one machine:

* Queries. `cadence-bench` measures Cadence's statistics-collection queries on its deterministic
  synthetic data. This script writes the *same* data (same seed, same sample counts) as CSV with
  `cadence generate`, loads it into DuckDB and into Polars **in memory** (load time reported on its
  own, never part of a query time) and runs the equivalent queries there, each the median of
  `--runs` runs after one warm-up, as the bench does:

  - daily, hourly, five-minute, one-minute, monthly and yearly average/minimum/maximum heart rate,
    Europe/Berlin, days (months, years) starting at 03:00 local time, on the dense profile (one
    sample every 5 s). DuckDB: `time_bucket(..., timezone('Europe/Berlin', start_date),
    INTERVAL '3 hours')` for days, months and years (bucketing local wall-clock time, so a DST day
    has 23 or 25 hours, as in Cadence) and `time_bucket(INTERVAL '1 hour', start_date,
    'Europe/Berlin')` for hours (likewise 5 minutes and 1 minute). The five-minute and one-minute
    rows appear with a Cadence figure when the bench measures them (their intervals are smaller
    than Cadence's blocks, so every block is decoded rather than answered from summaries: the
    per-interval cost shows).
    Polars: `group_by_dynamic` on a tz-aware Europe/Berlin column with `offset="3h"`.
    Heart rate here is zero-length samples, so HealthKit's temporally weighted average (which
    Cadence computes) equals the arithmetic mean the peers compute: the numbers agree, which the
    sanity check verifies;
  - average/minimum/maximum heart rate over every sample (a statistics query);
  - the whole `cadence stats` process (start-up, open, query, formatting, writing to a pipe; the
    bench's `cli.stats.*` figures) for hourly heart rate as CSV and JSON and daily as JSON, beside
    the peers' in-memory query plus formatting its result as CSV or JSON (DuckDB: `COPY (...) TO
    '/dev/null'`; Polars: `write_csv()` / `write_json()` into a string);
  - the daily step sum with proration and source merge (realistic profile). The peers cannot
    express proration across interval edges or HealthKit's source merging in a simple query, so
    the table says "not comparable" instead of a ratio; a naive per-day sum (by start date, every
    source added up, double counting iPhone + Watch) is timed for reference and labelled as
    different work.

  The ratio is peer median / Cadence median: above 1, Cadence is that many times faster.

* CSV import. The bench's `import.csv.dense.jobs1/jobs2` figures (`cadence-bench` importing the same
  dense CSV into a new durable store on 1 and 2 cores) beside DuckDB and Polars reading that CSV into
  memory (every column, dates as timestamps, values as doubles; median of `--runs` runs after one
  warm-up). Cadence also validates every row, converts units, compresses and writes a durable store:
  more work, shown for scale.

* Import. Large realistic `export.xml` files from `cadence generate --format export-xml` (two
  sizes by default) are imported with `cadence import` and with `healthkit-to-sqlite --xml`
  (PyPI): wall time and peak resident memory (`/usr/bin/time -v`, "Maximum resident set size")
  of each, and whether Cadence's peak memory grows with the file.

* Sanity. The dense CSV is imported into a Cadence store with `cadence import`, and a few daily
  and hourly intervals from `cadence stats --format json` are compared with DuckDB's and Polars'
  results for the same intervals; the number of intervals each engine returned is compared too.

How to run (from the repository root; Swift 6 and Python 3.10+):

    python3 -m pip install -r Benchmarks/compare/requirements.txt
    python3 Benchmarks/compare/compare.py --output /tmp/cadence-compare/results.md

    # smaller and quicker
    python3 Benchmarks/compare/compare.py --samples 1000000 --runs 3 --import-records 200k,800k
    python3 Benchmarks/compare/compare.py --quick    # 1M samples, 3 runs, no import comparison

The script builds `cadence` and `cadence-bench` in release mode (scratch path `.build-compare`)
unless given `--cadence-bin`/`--bench-bin`, and can reuse a `cadence-bench --json` report with
`--cadence-json` (it must have been made with the same `--samples` and `--seed`). Generated data
goes to `--workdir` (default /tmp/cadence-compare) and is deleted at the end unless `--keep-data`.
It installs nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable
from zoneinfo import ZoneInfo

HEART_RATE = "HKQuantityTypeIdentifierHeartRate"
STEP_COUNT = "HKQuantityTypeIdentifierStepCount"
TIME_ZONE = "Europe/Berlin"
BERLIN = ZoneInfo(TIME_ZONE)
# The anchor of every collection query in Suites.swift: 2024-01-01 03:00 local time.
ANCHOR = datetime(2024, 1, 1, 3, 0, tzinfo=BERLIN)
NOT_COMPARABLE = "not comparable (proration + source merge)"
REPO = Path(__file__).resolve().parents[2]

_START = time.monotonic()


# MARK: - Small helpers


def log(message: str) -> None:
    """Progress to standard error, so standard output keeps the report."""
    print(f"[{time.monotonic() - _START:7.1f} s] {message}", file=sys.stderr, flush=True)


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages from /proc/loadavg ("?" where there is none)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def size_label(count: int) -> str:
    """The bench's label for a sample count (sizeLabel in BenchmarkOptions.swift): 200k, 1M, 10M, 1.5M, 1B."""
    if count >= 1_000_000_000 and count % 1_000_000_000 == 0:
        return f"{count // 1_000_000_000}B"
    if count >= 1_000_000:
        return f"{count // 1_000_000}M" if count % 1_000_000 == 0 else f"{count / 1e6:.1f}M"
    if count >= 1_000:
        return f"{count // 1_000}k" if count % 1_000 == 0 else f"{count / 1e3:.1f}k"
    return str(count)


def parse_counts(text: str) -> list[int]:
    """A comma-separated list of counts, smallest first."""
    return sorted(parse_count(part) for part in text.split(",") if part)


def parse_count(text: str) -> int:
    """`10000000`, `10M`, `300k`, `1B` or `1_500_000`."""
    digits = text.replace("_", "").lower()
    multiplier = 1
    if digits.endswith("k"):
        multiplier, digits = 1_000, digits[:-1]
    elif digits.endswith("m"):
        multiplier, digits = 1_000_000, digits[:-1]
    elif digits.endswith("b"):
        multiplier, digits = 1_000_000_000, digits[:-1]
    count = int(digits) * multiplier
    if count <= 0:
        raise argparse.ArgumentTypeError(f"a count must be positive, not {text}")
    return count


def format_seconds(seconds: float | None) -> str:
    """`1.234 s`, `12.3 ms`, `456 µs` (the bench's format)."""
    if seconds is None:
        return "—"
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def format_ratio(peer: float | None, cadence: float | None) -> str:
    """Peer time over Cadence's time, said in words."""
    if peer is None or cadence is None or cadence <= 0:
        return "—"
    ratio = peer / cadence
    if ratio >= 1:
        return f"{ratio:.1f}× (Cadence is {ratio:.1f}× faster)"
    return f"{ratio:.2f}× (Cadence is {1 / ratio:.1f}× slower)"


def format_bytes(count: int | None) -> str:
    if count is None:
        return "n/a"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} B"


def run_command(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
    """Runs a command, failing loudly with its output when it fails."""
    log("$ " + " ".join(command))
    result = subprocess.run(command, text=True, capture_output=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


# MARK: - Timing


@dataclass
class Timing:
    """The measured runs of one query (warm-up excluded)."""

    seconds: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def as_json(self) -> dict:
        return {"median": self.median, "seconds": self.seconds}


def measure(body: Callable[[], Any], runs: int, warm_up: int = 1) -> tuple[Timing, Any]:
    """Runs `body` `warm_up` times unmeasured, then `runs` times measured; returns the last result."""
    result = None
    for _ in range(warm_up):
        result = body()
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        result = body()
        seconds.append(time.perf_counter() - start)
    return Timing(seconds), result


# MARK: - Cadence: build, bench, generate


def build_products(scratch: Path) -> tuple[Path, Path]:
    """Builds `cadence` and `cadence-bench` in release mode; returns their paths."""
    for product in ("cadence", "cadence-bench"):
        command = ["swift", "build", "-c", "release", "--product", product, "--scratch-path", str(scratch)]
        for attempt in range(1, 4):
            try:
                run_command(command, cwd=REPO)
                break
            except RuntimeError as error:
                # A source edited while building (someone working in the tree) is worth a retry.
                if "modified during the build" not in str(error) or attempt == 3:
                    raise
                log("a source file changed during the build; retrying in 60 s")
                time.sleep(60)
    return scratch / "release" / "cadence", scratch / "release" / "cadence-bench"


def run_bench(bench: Path, samples: int, runs: int, seed: int, json_path: Path, table_path: Path) -> dict:
    """Runs `cadence-bench --samples N --runs R --seed S --json FILE`; its table goes to `table_path`."""
    command = [str(bench), "--samples", str(samples), "--runs", str(runs), "--seed", str(seed),
               "--json", str(json_path)]
    log("$ " + " ".join(command) + f"  (table → {table_path})")
    with open(table_path, "w") as table:
        result = subprocess.run(command, stdout=table, stderr=sys.stderr)
    if result.returncode != 0:
        raise RuntimeError(f"cadence-bench exited with {result.returncode}")
    return json.loads(json_path.read_text())


@dataclass
class CadenceFigure:
    """One of the bench's figures: median seconds, the samples it covered, the intervals it returned."""

    name: str
    median: float
    samples: int
    intervals: int | None


def cadence_figures(report: dict, samples: int) -> dict[str, CadenceFigure]:
    """The bench's figures at this size, by name, with medians recomputed from the run times."""
    label = size_label(samples)
    figures = {}
    for result in report["results"]:
        if not result["name"].endswith("." + label) or "timing" not in result:
            continue
        seconds = [float(value) for value in result["timing"]["seconds"]]
        match = re.search(r"(\d+) intervals", result.get("note") or "")
        figures[result["name"]] = CadenceFigure(result["name"], statistics.median(seconds), result["samples"],
                                                int(match.group(1)) if match else None)
    return figures


def check_bench_report(report: dict, samples: int, seed: int) -> None:
    """A reused report must be about the same data."""
    if int(report["seed"]) != seed:
        raise SystemExit(f"the cadence-bench report has seed {report['seed']}, not {seed}")
    label = size_label(samples)
    if not any(result["name"].endswith("." + label) for result in report["results"]):
        raise SystemExit(f"the cadence-bench report has no figures for {label} samples")


def generate(cadence: Path, profile: str, samples: int, seed: int, file_format: str, path: Path) -> int:
    """`cadence generate`; returns the number of samples written."""
    result = run_command([str(cadence), "generate", "--profile", profile, "--samples", str(samples),
                          "--seed", str(seed), "--format", file_format, "--output", str(path)])
    match = re.search(r"Wrote (\d+) samples", result.stdout)
    if not match:
        raise RuntimeError(f"unexpected output from cadence generate: {result.stdout}")
    return int(match.group(1))


def csv_read_peers(con: Any, csv: Path, runs: int) -> dict[str, Timing]:
    """DuckDB and Polars each reading a whole CSV in `cadence import`'s columns into memory: every
    column, start and end dates as timestamps, values as doubles."""
    import polars as pl
    columns = ("{'type': 'VARCHAR', 'sourceName': 'VARCHAR', 'unit': 'VARCHAR', 'startDate': 'TIMESTAMPTZ', "
               "'endDate': 'TIMESTAMPTZ', 'value': 'DOUBLE', 'sourceVersion': 'VARCHAR', 'device': 'VARCHAR', "
               "'creationDate': 'VARCHAR'}")

    def duckdb_read() -> None:
        con.execute(f"CREATE OR REPLACE TEMP TABLE csv_read AS SELECT * FROM read_csv(?, header = true, "
                    f"columns = {columns})", [str(csv)])

    def polars_read() -> Any:
        return pl.read_csv(csv, schema_overrides={"value": pl.Float64}).with_columns(
            pl.col("startDate").str.to_datetime(time_unit="us", time_zone="UTC"),
            pl.col("endDate").str.to_datetime(time_unit="us", time_zone="UTC"))

    log("DuckDB and Polars: reading the dense CSV")
    timings = {"DuckDB": measure(duckdb_read, runs)[0], "Polars": measure(polars_read, runs)[0]}
    con.execute("DROP TABLE IF EXISTS csv_read")
    return timings


# MARK: - The queries


@dataclass
class Query:
    """One row of the comparison: the bench figure it matches and how each peer runs it."""

    title: str
    cadence_name: str | None  # the bench figure, without the size suffix
    duckdb_sql: str | None
    polars: Callable[[Any], Any] | None
    comparable: bool = True
    note: str = ""
    # The result format the peers write after the query (`csv` or `json`), for the rows whose
    # Cadence figure is the whole `cadence stats` process.
    output: str | None = None


def duckdb_local_bucket(width: str) -> str:
    """A calendar bucket of local wall-clock time starting 03:00 (days, months, years)."""
    return f"time_bucket(INTERVAL '{width}', timezone('{TIME_ZONE}', start_date), INTERVAL '3 hours')"


# Hours are absolute: bucketing wall-clock time would fold the repeated hour of the autumn DST
# change into one bucket, so hours are bucketed as instants in the zone (Berlin's offsets are whole
# hours, so these are the local hours).
DUCKDB_HOUR_BUCKET = f"time_bucket(INTERVAL '1 hour', start_date, '{TIME_ZONE}')"
DUCKDB_FIVE_MINUTE_BUCKET = f"time_bucket(INTERVAL '5 minutes', start_date, '{TIME_ZONE}')"
DUCKDB_ONE_MINUTE_BUCKET = f"time_bucket(INTERVAL '1 minute', start_date, '{TIME_ZONE}')"


def duckdb_collection_sql(bucket: str, table: str = "heart_rate") -> str:
    return (f"SELECT {bucket} AS bucket, avg(value) AS average, min(value) AS minimum, max(value) AS maximum "
            f"FROM {table} GROUP BY bucket")


def polars_collection(every: str, offset: str) -> Callable[[Any], Any]:
    """`group_by_dynamic` over the tz-aware start column: avg/min/max per window."""
    import polars as pl

    def run(frame: Any) -> Any:
        return frame.group_by_dynamic("start", every=every, offset=offset).agg(
            pl.col("value").mean().alias("average"), pl.col("value").min().alias("minimum"),
            pl.col("value").max().alias("maximum"))
    return run


def polars_formatted(query: Callable[[Any], Any], output: str) -> Callable[[Any], Any]:
    """A Polars query whose result is then written as CSV or JSON into a string (what a command
    line tool would print); the frame is returned for the sanity check."""
    def run(frame: Any) -> Any:
        result = query(frame)
        text = result.write_csv() if output == "csv" else result.write_json()
        if not text:
            raise RuntimeError("Polars wrote nothing")
        return result
    return run


def polars_everything(frame: Any) -> Any:
    import polars as pl
    return frame.select(pl.col("value").mean().alias("average"), pl.col("value").min().alias("minimum"),
                        pl.col("value").max().alias("maximum"))


def polars_naive_daily_sum(frame: Any) -> Any:
    import polars as pl
    return frame.group_by_dynamic("start", every="1d", offset="3h").agg(pl.col("value").sum().alias("sum"))


CLI_TITLE = ("{interval} heart rate, {output} output: whole `cadence stats` process "
             "vs peers' in-memory query + {output} formatting")


def make_queries() -> list[Query]:
    return [
        Query("daily heart rate avg/min/max", "statisticsCollection.daily.heartRate",
              duckdb_collection_sql(duckdb_local_bucket("1 day")), polars_collection("1d", "3h")),
        Query("hourly heart rate avg/min/max", "statisticsCollection.hourly.heartRate",
              duckdb_collection_sql(DUCKDB_HOUR_BUCKET), polars_collection("1h", "0h")),
        Query("five-minute heart rate avg/min/max", "statisticsCollection.fiveMinute.heartRate",
              duckdb_collection_sql(DUCKDB_FIVE_MINUTE_BUCKET), polars_collection("5m", "0h")),
        Query("one-minute heart rate avg/min/max", "statisticsCollection.oneMinute.heartRate",
              duckdb_collection_sql(DUCKDB_ONE_MINUTE_BUCKET), polars_collection("1m", "0h")),
        Query("monthly heart rate avg/min/max", "statisticsCollection.monthly.heartRate",
              duckdb_collection_sql(duckdb_local_bucket("1 month")), polars_collection("1mo", "3h")),
        Query("yearly heart rate avg/min/max", "statisticsCollection.yearly.heartRate",
              duckdb_collection_sql(duckdb_local_bucket("1 year")), polars_collection("1y", "3h")),
        Query("heart rate avg/min/max over everything", "statistics.all.heartRate",
              "SELECT avg(value) AS average, min(value) AS minimum, max(value) AS maximum FROM heart_rate",
              polars_everything),
        # The whole command-line process beside the peers' in-memory query plus formatting.
        Query(CLI_TITLE.format(interval="hourly", output="CSV"), "cli.stats.hourly.csv.heartRate",
              duckdb_collection_sql(DUCKDB_HOUR_BUCKET), polars_formatted(polars_collection("1h", "0h"), "csv"),
              output="csv"),
        Query(CLI_TITLE.format(interval="hourly", output="JSON"), "cli.stats.hourly.json.heartRate",
              duckdb_collection_sql(DUCKDB_HOUR_BUCKET), polars_formatted(polars_collection("1h", "0h"), "json"),
              output="json"),
        Query(CLI_TITLE.format(interval="daily", output="JSON"), "cli.stats.daily.json.heartRate",
              duckdb_collection_sql(duckdb_local_bucket("1 day")), polars_formatted(polars_collection("1d", "3h"), "json"),
              output="json"),
        Query("daily step sum, prorated, iPhone + Watch merged", "statisticsCollection.daily.stepCount.merged",
              None, None, comparable=False),
        Query("naive daily step sum (DIFFERENT WORK: no proration, sources double counted)", None,
              f"SELECT {duckdb_local_bucket('1 day')} AS bucket, sum(value) AS sum FROM steps GROUP BY bucket",
              polars_naive_daily_sum, note="reference only"),
    ]


# MARK: - The peers


def duckdb_load(con: Any, csv: Path, table: str, quantity_type: str) -> tuple[float, int]:
    """Loads one type's rows of a CSV into an in-memory DuckDB table (start/end as TIMESTAMPTZ)."""
    start = time.perf_counter()
    con.execute(f"""
        CREATE OR REPLACE TABLE {table} AS
        SELECT startDate AS start_date, endDate AS end_date, value, sourceName AS source_name
        FROM read_csv(?, header = true, columns = {{
            'type': 'VARCHAR', 'sourceName': 'VARCHAR', 'unit': 'VARCHAR',
            'startDate': 'TIMESTAMPTZ', 'endDate': 'TIMESTAMPTZ', 'value': 'DOUBLE',
            'sourceVersion': 'VARCHAR', 'device': 'VARCHAR', 'creationDate': 'VARCHAR'}})
        WHERE type = ?
        ORDER BY start_date""", [str(csv), quantity_type])
    seconds = time.perf_counter() - start
    rows = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    return seconds, rows


def polars_load(csv: Path, quantity_type: str) -> tuple[float, Any]:
    """Reads one type's rows of a CSV into a Polars frame, start as a tz-aware Europe/Berlin column, sorted."""
    import polars as pl
    start = time.perf_counter()
    raw = (pl.read_csv(csv, columns=["type", "sourceName", "startDate", "endDate", "value"],
                       schema_overrides={"type": pl.String, "sourceName": pl.String, "startDate": pl.String,
                                         "endDate": pl.String, "value": pl.Float64})
           .filter(pl.col("type") == quantity_type))

    def parse(column: str, name: str, date_format: str | None) -> Any:
        return (pl.col(column).str.to_datetime(format=date_format, time_unit="us", time_zone="UTC")
                .dt.convert_time_zone(TIME_ZONE).alias(name))

    # The generator writes whole seconds with a Z; anything else falls back to Polars' inference.
    for date_format in ("%Y-%m-%dT%H:%M:%SZ", None):
        try:
            frame = raw.select(parse("startDate", "start", date_format), parse("endDate", "end", date_format),
                               pl.col("value"), pl.col("sourceName").alias("source_name"))
            break
        except pl.exceptions.PolarsError:
            if date_format is None:
                raise
    frame = frame.sort("start")
    return time.perf_counter() - start, frame


def run_duckdb_query(con: Any, sql: str, output: str | None = None) -> None:
    """Computes the query fully inside DuckDB into a temporary table (no conversion to Python
    objects); with `output`, also writes that table as CSV or JSON (an array) to /dev/null."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE result AS {sql}")
    if output == "csv":
        con.execute("COPY result TO '/dev/null' (FORMAT csv, HEADER)")
    elif output == "json":
        con.execute("COPY result TO '/dev/null' (FORMAT json, ARRAY true)")


def duckdb_result_rows(con: Any) -> list[tuple]:
    """The last query's result, bucket rendered as text (session zone UTC) to avoid needing pytz."""
    columns = [row[0] for row in con.execute("DESCRIBE result").fetchall()]
    select = ", ".join(f"CAST({name} AS VARCHAR)" if name == "bucket" else name for name in columns)
    order = " ORDER BY bucket" if "bucket" in columns else ""
    return con.execute(f"SELECT {select} FROM result{order}").fetchall()


def parse_duckdb_bucket(text: str) -> datetime:
    """A DuckDB bucket as an aware datetime: naive ones are Berlin wall-clock time."""
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=BERLIN) if moment.tzinfo is None else moment


# MARK: - Import comparison


@dataclass
class ProcessMeasurement:
    wall_seconds: float
    max_rss_bytes: int | None
    stdout: str
    error: str | None = None


def measure_process(command: list[str], time_binary: str | None) -> ProcessMeasurement:
    """Wall time of a command and, with GNU time, its peak resident set size."""
    full = ([time_binary, "-v"] if time_binary else []) + command
    log("$ " + " ".join(full))
    start = time.perf_counter()
    result = subprocess.run(full, text=True, capture_output=True)
    wall = time.perf_counter() - start
    rss = None
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    if match:
        rss = int(match.group(1)) * 1024
    error = None
    if result.returncode != 0:
        tail = "\n".join(line for line in result.stderr.splitlines() if not line.startswith("\t"))[-2000:]
        error = f"exit status {result.returncode}: {tail.strip()}"
    return ProcessMeasurement(wall, rss, result.stdout, error)


def sqlite_record_count(path: Path) -> int:
    """Rows in healthkit-to-sqlite's record tables (one table per type, named r…)."""
    with sqlite3.connect(path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return sum(db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
                   for table in tables if table.startswith("r") and table != "activity_summary")


def compare_imports(cadence: Path, records: int, seed: int, workdir: Path, time_binary: str | None) -> dict:
    """Generates a realistic export.xml and imports it with both tools, once each."""
    xml = workdir / f"export-{size_label(records)}.xml"
    written = generate(cadence, "realistic", records, seed, "export-xml", xml)
    outcome: dict[str, Any] = {"records": written, "xmlBytes": xml.stat().st_size}

    store = workdir / f"import-{size_label(records)}.cadence"
    shutil.rmtree(store, ignore_errors=True)
    measured = measure_process([str(cadence), "import", str(xml), "--store", str(store), "--format", "json"],
                               time_binary)
    cadence_result = {"wallSeconds": measured.wall_seconds, "maxRSSBytes": measured.max_rss_bytes,
                      "error": measured.error}
    if measured.error is None:
        cadence_result["imported"] = json.loads(measured.stdout)["totals"]["imported"]
    outcome["cadence"] = cadence_result
    shutil.rmtree(store, ignore_errors=True)

    database = workdir / f"healthkit-{size_label(records)}.db"
    database.unlink(missing_ok=True)
    tool = shutil.which("healthkit-to-sqlite")
    if tool is None:
        outcome["healthkitToSqlite"] = {"error": "healthkit-to-sqlite is not installed (pip install -r requirements.txt)"}
    else:
        measured = measure_process([tool, "--xml", "--silent", str(xml), str(database)], time_binary)
        peer = {"wallSeconds": measured.wall_seconds, "maxRSSBytes": measured.max_rss_bytes, "error": measured.error}
        if measured.error is None:
            peer["imported"] = sqlite_record_count(database)
        outcome["healthkitToSqlite"] = peer
    database.unlink(missing_ok=True)
    xml.unlink(missing_ok=True)
    return outcome


# MARK: - Sanity check


def cadence_stats(cadence: Path, store: Path, interval: str, start: datetime, end: datetime) -> list[dict]:
    """`cadence stats --format json` for heart rate over [start, end) in Berlin, anchored at 03:00."""
    result = run_command([
        str(cadence), "stats", "--store", str(store), "--type", HEART_RATE, "--interval", interval,
        "--from", start.isoformat(), "--to", end.isoformat(), "--anchor", ANCHOR.isoformat(),
        "--time-zone", TIME_ZONE, "--options", "average,minimum,maximum", "--format", "json"])
    return json.loads(result.stdout)["statistics"]


def close_enough(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def utc(moment: datetime) -> datetime:
    """An aware datetime in UTC, so that keys from different engines compare by instant."""
    return moment.astimezone(timezone.utc)


def offset_changes(starts: list[datetime], length: timedelta) -> list[datetime]:
    """The intervals (of `length` wall-clock time from each start) that span a DST change."""
    changed = []
    for start in starts:
        local = start.astimezone(BERLIN)
        end = (local.replace(tzinfo=None) + length).replace(tzinfo=BERLIN)
        if local.utcoffset() != end.utcoffset():
            changed.append(start)
    return changed


def sanity_intervals(days: list[datetime], hours: list[datetime]) -> tuple[list[datetime], list[datetime]]:
    """A few daily and hourly interval starts (UTC) to check: the first full day and the first two
    DST days (23 and 25 hours), and the hours around the first autumn change (the repeated hour)."""
    full_days = days[1:-1]  # the first and last intervals are partial
    dst_days = offset_changes(full_days, timedelta(days=1))[:2]
    chosen_days = sorted(set(full_days[:1] + dst_days))
    hour_set = set(hours)
    autumn = [hour for hour in hours if hour + timedelta(hours=1) in hour_set
              and hour.astimezone(BERLIN).utcoffset() > (hour + timedelta(hours=1)).astimezone(BERLIN).utcoffset()]
    if autumn:
        change = autumn[0]
        chosen_hours = [hour for hour in hours if change - timedelta(hours=2) <= hour <= change + timedelta(hours=2)]
    else:
        chosen_hours = hours[1:5]
    return chosen_days, chosen_hours


def write_subset_csv(con: Any, csv: Path, windows: list[tuple[datetime, datetime]], subset: Path) -> int:
    """Copies the CSV rows (as text, unchanged values) whose start falls in one of the windows."""
    conditions = " OR ".join(
        f"(startDate >= '{a.strftime('%Y-%m-%dT%H:%M:%SZ')}' AND startDate < '{b.strftime('%Y-%m-%dT%H:%M:%SZ')}')"
        for a, b in windows)
    con.execute(f"""COPY (SELECT * FROM read_csv(?, header = true, all_varchar = true) WHERE {conditions})
                    TO '{subset}' (HEADER, DELIMITER ',')""", [str(csv)])
    return con.execute(f"SELECT count(*) FROM read_csv('{subset}', header = true, all_varchar = true)").fetchone()[0]


def sanity_check(cadence: Path, con: Any, dense_csv: Path, workdir: Path, peer_results: dict, figures: dict,
                 samples: int) -> list[str]:
    """Compares a few intervals of Cadence (the CLI on an imported store) with DuckDB and Polars, and
    the number of intervals each returned."""
    lines = []
    label = size_label(samples)
    # Interval counts over the whole data: the bench notes how many intervals each query returned.
    for query_name, title in (("daily", "daily"), ("hourly", "hourly"), ("fiveMinute", "five-minute"),
                              ("oneMinute", "one-minute"), ("monthly", "monthly"), ("yearly", "yearly")):
        figure = figures.get(f"statisticsCollection.{query_name}.heartRate.{label}")
        counts = {"Cadence (bench)": figure.intervals if figure else None}
        for peer in ("DuckDB", "Polars"):
            result = peer_results.get((peer, f"{title} heart rate avg/min/max"))
            counts[peer] = len(result) if result is not None else None
        same = len(set(counts.values())) == 1
        lines.append(f"{query_name} intervals: " + ", ".join(f"{k} {v}" for k, v in counts.items())
                     + (" — match" if same else " — MISMATCH"))

    duck_days = {utc(parse_duckdb_bucket(row[0])): row[1:] for row in peer_results[("DuckDB", "daily heart rate avg/min/max")]}
    duck_hours = {utc(parse_duckdb_bucket(row[0])): row[1:] for row in peer_results[("DuckDB", "hourly heart rate avg/min/max")]}
    polars_days = {utc(row[0]): row[1:] for row in peer_results[("Polars", "daily heart rate avg/min/max")]}
    polars_hours = {utc(row[0]): row[1:] for row in peer_results[("Polars", "hourly heart rate avg/min/max")]}
    days, hours = sanity_intervals(sorted(duck_days), sorted(duck_hours))

    # Only the rows of the checked intervals are imported into the store for the check: a
    # statistic of an interval depends on that interval's samples alone.
    day_ends = {day: utc((day.astimezone(BERLIN).replace(tzinfo=None) + timedelta(days=1)).replace(tzinfo=BERLIN))
                for day in days}
    hour_ends = {hour: hour + timedelta(hours=1) for hour in hours}
    windows = list(day_ends.items()) + list(hour_ends.items())
    subset = workdir / "dense-sanity-subset.csv"
    rows = write_subset_csv(con, dense_csv, windows, subset)
    store = workdir / "dense-sanity.cadence"
    shutil.rmtree(store, ignore_errors=True)
    started = time.perf_counter()
    run_command([str(cadence), "import", str(subset), "--store", str(store), "--format", "json"])
    lines.append(f"the {rows:,} dense CSV rows of the checked intervals were imported into a Cadence store with "
                 f"`cadence import` ({time.perf_counter() - started:.1f} s) and queried with `cadence stats`")

    mismatches = 0
    for interval, ends, duck, polars in (("1d", day_ends, duck_days, polars_days),
                                         ("1h", hour_ends, duck_hours, polars_hours)):
        for start, end in ends.items():
            cadence_rows = cadence_stats(cadence, store, interval, start.astimezone(BERLIN), end.astimezone(BERLIN))
            row = next((r for r in cadence_rows if utc(datetime.fromisoformat(r["startDate"])) == start), None)
            cadence_values = (row["average"], row["minimum"], row["maximum"]) if row else None
            peers = {"DuckDB": duck.get(start), "Polars": polars.get(start)}
            verdicts = []
            for peer, values in peers.items():
                ok = cadence_values is not None and values is not None and all(
                    close_enough(a, b) for a, b in zip(cadence_values, values))
                verdicts.append(f"{peer} {'match' if ok else 'MISMATCH'}")
                mismatches += 0 if ok else 1

            def shown(values: tuple | None) -> str:
                return "missing" if values is None else f"avg {values[0]:.6f} min {values[1]:g} max {values[2]:g}"
            hours_long = (end - start).total_seconds() / 3600
            lines.append(f"{interval} from {start.astimezone(BERLIN).isoformat()} ({hours_long:g} h): "
                         f"Cadence {shown(cadence_values)}; DuckDB {shown(peers['DuckDB'])}; "
                         f"Polars {shown(peers['Polars'])} → {', '.join(verdicts)}")
    lines.append("sanity check: all compared intervals match" if mismatches == 0
                 else f"sanity check: {mismatches} MISMATCHES (see above)")
    shutil.rmtree(store, ignore_errors=True)
    subset.unlink(missing_ok=True)
    return lines


# MARK: - Report


@dataclass
class Report:
    """Everything measured, rendered as Markdown (printed and written) or JSON."""

    meta: dict
    rows: list[dict] = field(default_factory=list)
    loads: list[dict] = field(default_factory=list)
    imports: list[dict] = field(default_factory=list)
    csv_imports: list[dict] = field(default_factory=list)
    sanity: list[str] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        meta = self.meta
        out = [f"# Cadence side by side ({meta['date']})", "",
               f"- command: `{meta['command']}`",
               f"- machine: {meta['machine']}",
               f"- load average (1/5/15 min): start {meta['loadStart']}, end {meta['loadEnd']}"
               f"; cadence-bench's own: start {meta['benchLoadStart']}, end {meta['benchLoadEnd']}",
               f"- versions: {meta['versions']}",
               f"- data: seed {meta['seed']}, dense {meta['denseSamples']:,} samples, realistic "
               f"{meta['realisticSamples']:,} samples ({meta['stepSamples']:,} steps); each time is the median of "
               f"{meta['runs']} runs after 1 warm-up", "",
               "## Queries", "",
               "| query | Cadence | DuckDB | Polars | DuckDB / Cadence | Polars / Cadence |",
               "|---|---:|---:|---:|---|---|"]
        for row in self.rows:
            out.append(f"| {row['query']} | {row['cadenceText']} | {row['duckdbText']} | {row['polarsText']} "
                       f"| {row['duckdbRatio']} | {row['polarsRatio']} |")
        out += ["", "Ratio = peer median / Cadence median, all from this run on this machine.", "",
                "## Loading (not part of any query time; not compared)", "",
                "| data | rows | DuckDB (CSV → in-memory table) | Polars (CSV → in-memory frame) "
                "| Cadence ingest (bench: in-memory batches → durable store) |", "|---|---:|---:|---:|---:|"]
        for load in self.loads:
            out.append(f"| {load['data']} | {load['rows']:,} | {format_seconds(load['duckdb'])} "
                       f"| {format_seconds(load['polars'])} | {load['cadence']} |")
        out += ["", "## CSV import", "",
                "| file | rows | Cadence, 1 core | Cadence, 2 cores | DuckDB (read into memory) "
                "| Polars (read into memory) | DuckDB / Cadence 2 cores | Polars / Cadence 2 cores |",
                "|---|---:|---:|---:|---:|---:|---|---|"]
        out += [csv_import_row(item) for item in self.csv_imports] or ["| not measured | | | | | | | |"]
        out += ["", "## export.xml import", ""]
        if self.imports:
            out += ["| records | export.xml | cadence import | peak RSS | healthkit-to-sqlite | peak RSS | ratio |",
                    "|---:|---:|---:|---:|---:|---:|---|"]
            out += [import_row(item) for item in self.imports]
        else:
            out.append("Not measured in this run (--skip-import or --quick).")
        out += ["", "## Sanity check", ""] + [f"- {line}" for line in self.sanity]
        out += ["", "## Targets (from this run)", ""] + [f"- {line}" for line in self.targets]
        out += ["", "## Notes", ""] + [f"- {line}" for line in self.notes]
        return "\n".join(out) + "\n"

    def results_section(self, bench_table: str | None, full: bool) -> str:
        """The body of a README's "## Results" section: how to regenerate it, the machine, the
        bench's table, the comparisons and the targets (`full` adds loading, sanity and notes)."""
        meta = self.meta
        report = self.markdown().split("\n")
        sections: dict[str, list[str]] = {}
        heading = None
        for line in report:
            if line.startswith("## "):
                heading = line[3:]
                sections[heading] = []
            elif heading is not None:
                sections[heading].append(line)

        def section(title: str, new_title: str | None = None) -> list[str]:
            body = sections.get(title, [])
            while body and not body[-1].strip():
                body = body[:-1]
            return [f"### {new_title or title}"] + body + [""]

        xml_import = ("times `cadence import` against `healthkit-to-sqlite` on generated `export.xml` files"
                      if self.imports else "did not time the export.xml import (skipped in this run)")
        out = ["", f"Measured on the machine below by one command ({meta['date']}), which builds everything in release "
               "mode, runs `cadence-bench`, generates the same data as CSV for DuckDB and Polars, and "
               f"{xml_import}; it also rewrote this section:", "", "```sh", "python3 -m pip install -r Benchmarks/compare/requirements.txt",
               f"{meta['command']}", "```", "",
               f"- machine: {meta['machine']}",
               f"- load average (1/5/15 min): start {meta['loadStart']}, end {meta['loadEnd']}",
               f"- versions: {meta['versions']}",
               f"- data: seed {meta['seed']}, dense {meta['denseSamples']:,} samples, realistic "
               f"{meta['realisticSamples']:,} samples; each time is the median of {meta['runs']} runs after 1 warm-up",
               ""]
        if bench_table:
            if not full:
                bench_table = bench_table.split("\nnotes:")[0]
            out += ["### cadence-bench", "", "```", bench_table.rstrip("\n"), "```", ""]
        out += section("Queries", "Side by side with DuckDB and Polars")
        if full:
            out += section("Loading (not part of any query time; not compared)")
        out += section("CSV import", "CSV import beside DuckDB and Polars reading the same CSV")
        out += section("export.xml import", "export.xml import beside healthkit-to-sqlite")
        out += section("Targets (from this run)")
        if full:
            out += section("Sanity check") + section("Notes")
        else:
            out += ["Loading times, the sanity check (Cadence's intervals against DuckDB's and Polars') and notes on "
                    "reading the figures: [Benchmarks/compare/README.md](Benchmarks/compare/README.md).", ""]
        return "\n".join(out)

    def summary_section(self) -> str:
        """The body of README.md's "## Results" section: when and how it was measured, the targets
        with this run's ratios, and a link to the full results."""
        meta = self.meta
        out = ["", f"Measured on {meta['machine'].split(',')[0]} by one command ({meta['date']}); every figure, the "
               "command and the machine are in [Benchmarks/RESULTS.md](Benchmarks/RESULTS.md), which the same "
               "command wrote.", ""]
        out += [f"- {line}" for line in self.targets]
        return "\n".join(out + [""])

    def json(self) -> str:
        return json.dumps({"meta": self.meta, "queries": self.rows, "loading": self.loads, "import": self.imports,
                           "csvImport": self.csv_imports,
                           "sanity": self.sanity, "targets": self.targets, "notes": self.notes}, indent=2,
                          default=str)


def csv_import_row(item: dict) -> str:
    """One CSV file: Cadence's import on 1 and 2 cores (rows/s and time) beside the peers' reads."""
    rows = item["rows"]

    def cadence(seconds: float | None) -> str:
        return f"{format_seconds(seconds)} ({rows / seconds / 1e6:.2f} M rows/s)" if seconds else "not measured"

    two_cores = item["cadence"].get("2")
    peers = item["peers"]
    return (f"| {item['file']} | {rows:,} | {cadence(item['cadence'].get('1'))} | {cadence(two_cores)} "
            f"| {format_seconds(peers.get('DuckDB'))} | {format_seconds(peers.get('Polars'))} "
            f"| {format_ratio(peers.get('DuckDB'), two_cores)} | {format_ratio(peers.get('Polars'), two_cores)} |")


def import_row(item: dict) -> str:
    cadence, peer = item["cadence"], item["healthkitToSqlite"]

    def cell(side: dict) -> tuple[str, str]:
        if side.get("error"):
            return f"failed: {side['error']}", "—"
        imported = side.get("imported")
        return (f"{side['wallSeconds']:.2f} s ({imported:,} records)", format_bytes(side.get("maxRSSBytes")))

    cadence_time, cadence_rss = cell(cadence)
    peer_time, peer_rss = cell(peer)
    ratio = "—"
    if not cadence.get("error") and not peer.get("error"):
        ratio = format_ratio(peer["wallSeconds"], cadence["wallSeconds"])
    return (f"| {item['records']:,} | {format_bytes(item['xmlBytes'])} | {cadence_time} | {cadence_rss} "
            f"| {peer_time} | {peer_rss} | {ratio} |")


# MARK: - Main


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=parse_count, default=None,
                        help="samples per profile, as cadence-bench --samples (default: 10M; 1M with --quick)")
    parser.add_argument("--runs", type=int, default=None, help="measured runs per query after 1 warm-up (default: 5; 3 with --quick)")
    parser.add_argument("--seed", type=int, default=42, help="the generator's seed (default: 42, the bench's)")
    parser.add_argument("--cadence-bin", type=Path, help="a release `cadence` binary (default: build it)")
    parser.add_argument("--bench-bin", type=Path, help="a release `cadence-bench` binary (default: build it)")
    parser.add_argument("--cadence-json", type=Path,
                        help="reuse this cadence-bench --json report instead of running the bench")
    parser.add_argument("--scratch-path", type=Path, default=REPO / ".build-compare",
                        help="swift build --scratch-path (default: .build-compare in the repository)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/cadence-compare"),
                        help="where generated data and stores go (default: /tmp/cadence-compare)")
    parser.add_argument("--import-records", type=parse_counts, default=[1_000_000, 4_000_000],
                        help="records in the export.xml files for the import comparison, comma-separated; "
                             "two sizes show whether peak memory grows with the file (default: 1M,4M)")
    parser.add_argument("--skip-import", action="store_true", help="skip the export.xml import comparison")
    parser.add_argument("--skip-sanity", action="store_true", help="skip the sanity check")
    parser.add_argument("--quick", action="store_true",
                        help="a short run: 1M samples and 3 runs unless given, no import comparison")
    parser.add_argument("--output", type=Path,
                        help="also write the report here: JSON if the name ends in .json, else Markdown")
    parser.add_argument("--keep-data", action="store_true", help="keep the generated CSV files")
    parser.add_argument("--readme", type=Path, action="append", default=[],
                        help="rewrite the '## Results' section of this Markdown file with a summary of this run "
                             "(repeatable)")
    parser.add_argument("--results", type=Path,
                        help="write the full results of this run here, as Markdown (e.g. Benchmarks/RESULTS.md)")
    arguments = parser.parse_args(argv)
    if arguments.samples is None:
        arguments.samples = 1_000_000 if arguments.quick else 10_000_000
    if arguments.runs is None:
        arguments.runs = 3 if arguments.quick else 5
    if arguments.quick:
        arguments.skip_import = True
    if arguments.runs < 1:
        parser.error("--runs must be at least 1")
    return arguments


def versions() -> str:
    import duckdb
    import polars
    try:
        from importlib.metadata import version
        healthkit = version("healthkit-to-sqlite")
    except Exception:  # noqa: BLE001 - only for the report
        healthkit = "not installed"
    swift = subprocess.run(["swift", "--version"], text=True, capture_output=True).stdout.splitlines()
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], text=True,
                            capture_output=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"], text=True,
                           capture_output=True).stdout.strip()
    return (f"Cadence {commit or '?'}{' + uncommitted changes' if dirty else ''}; "
            f"{swift[0] if swift else 'swift ?'}; Python {platform.python_version()}; duckdb {duckdb.__version__}; "
            f"polars {polars.__version__}; healthkit-to-sqlite {healthkit}")


def machine() -> str:
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({cpu}), {memory / (1 << 30):.0f} GiB, {platform.platform()}"


def main(argv: list[str]) -> int:
    arguments = parse_arguments(argv)
    import duckdb  # noqa: F401 - fail early with a clear message if missing
    import polars as pl  # noqa: F401

    load_start = load_average()
    versions_text = versions()  # before building: the commit the binaries are built from
    arguments.workdir.mkdir(parents=True, exist_ok=True)
    samples, runs, seed, label = arguments.samples, arguments.runs, arguments.seed, size_label(arguments.samples)

    # 1. Binaries.
    cadence, bench = arguments.cadence_bin, arguments.bench_bin
    if cadence is None or (bench is None and arguments.cadence_json is None):
        built_cadence, built_bench = build_products(arguments.scratch_path)
        cadence = cadence or built_cadence
        bench = bench or built_bench

    # 2. Cadence's figures.
    if arguments.cadence_json:
        bench_report = json.loads(arguments.cadence_json.read_text())
        bench_source = f"reused {arguments.cadence_json}"
    else:
        json_path = arguments.workdir / f"cadence-bench-{label}.json"
        bench_report = run_bench(bench, samples, runs, seed, json_path, arguments.workdir / f"cadence-bench-{label}.txt")
        bench_source = f"{bench} --samples {samples} --runs {runs} --seed {seed} --json {json_path}"
    check_bench_report(bench_report, samples, seed)
    figures = cadence_figures(bench_report, samples)

    # 3. The same data as CSV.
    dense_csv = arguments.workdir / f"dense-{label}.csv"
    realistic_csv = arguments.workdir / f"realistic-{label}.csv"
    dense_rows = generate(cadence, "dense", samples, seed, "csv", dense_csv)
    realistic_rows = generate(cadence, "realistic", samples, seed, "csv", realistic_csv)
    notes = [f"Cadence figures: {bench_source} (the bench's medians, from the same runs)."]
    for profile, rows in (("dense", dense_rows), ("realistic", realistic_rows)):
        ingest = next((r for r in bench_report["results"] if r["name"] == f"ingest.{profile}.{label}"), None)
        if ingest and ingest["samples"] != rows:
            notes.append(f"WARNING: the bench ingested {ingest['samples']:,} {profile} samples, the CSV has {rows:,}.")

    # 4. Load into the peers.
    import duckdb as duckdb_module
    con = duckdb_module.connect()
    con.execute("SET TimeZone = 'UTC'")
    log("loading CSVs into DuckDB and Polars")
    duck_hr_seconds, hr_rows = duckdb_load(con, dense_csv, "heart_rate", HEART_RATE)
    duck_steps_seconds, step_rows = duckdb_load(con, realistic_csv, "steps", STEP_COUNT)
    polars_hr_seconds, polars_hr = polars_load(dense_csv, HEART_RATE)
    polars_steps_seconds, polars_steps = polars_load(realistic_csv, STEP_COUNT)
    if polars_hr.height != hr_rows or polars_steps.height != step_rows:
        notes.append("WARNING: DuckDB and Polars loaded different row counts.")

    def ingest_text(profile: str) -> str:
        figure = figures.get(f"ingest.{profile}.{label}")
        if not figure:
            return "—"
        return f"{format_seconds(figure.median)} for {figure.samples:,} samples (all types)"

    loads = [
        {"data": f"dense CSV, heart rate ({dense_csv.stat().st_size / 1e9:.2f} GB)", "rows": hr_rows,
         "duckdb": duck_hr_seconds, "polars": polars_hr_seconds, "cadence": ingest_text("dense")},
        {"data": f"realistic CSV, steps only ({realistic_csv.stat().st_size / 1e9:.2f} GB)", "rows": step_rows,
         "duckdb": duck_steps_seconds, "polars": polars_steps_seconds, "cadence": ingest_text("realistic")},
    ]
    if not arguments.keep_data:
        realistic_csv.unlink(missing_ok=True)
    csv_imports = []
    cadence_csv = {str(jobs): figure.median for jobs in (1, 2)
                   if (figure := figures.get(f"import.csv.dense.jobs{jobs}.{label}"))}
    if cadence_csv:
        peers = csv_read_peers(con, dense_csv, runs)
        csv_imports.append({"file": f"dense CSV ({dense_csv.stat().st_size / 1e9:.2f} GB)", "rows": dense_rows,
                            "cadence": cadence_csv, "peers": {name: timing.median for name, timing in peers.items()},
                            "peerTimings": {name: timing.as_json() for name, timing in peers.items()}})
    else:
        notes.append("The bench report has no import.csv.dense figures: the CSV import was not compared.")

    # 5–6. The queries.
    rows, peer_results = [], {}
    for query in make_queries():
        cadence_figure = figures.get(f"{query.cadence_name}.{label}") if query.cadence_name else None
        cadence_median = cadence_figure.median if cadence_figure else None
        medians: dict[str, float | None] = {"DuckDB": None, "Polars": None}
        timings: dict[str, Any] = {}
        if query.duckdb_sql:
            log(f"DuckDB: {query.title}")
            timing, _ = measure(lambda: run_duckdb_query(con, query.duckdb_sql, query.output), runs)
            medians["DuckDB"], timings["DuckDB"] = timing.median, timing.as_json()
            peer_results[("DuckDB", query.title)] = duckdb_result_rows(con)
        if query.polars:
            log(f"Polars: {query.title}")
            frame = polars_steps if "step" in query.title else polars_hr
            timing, result = measure(lambda: query.polars(frame), runs)
            medians["Polars"], timings["Polars"] = timing.median, timing.as_json()
            peer_results[("Polars", query.title)] = result.rows()
        if query.comparable:
            duck_ratio = format_ratio(medians["DuckDB"], cadence_median)
            polars_ratio = format_ratio(medians["Polars"], cadence_median)
        else:
            duck_ratio = polars_ratio = NOT_COMPARABLE
        rows.append({
            "query": query.title + (f" ({query.note})" if query.note else ""),
            "cadence": cadence_median, "duckdb": medians["DuckDB"], "polars": medians["Polars"],
            "cadenceText": format_seconds(cadence_median) if query.cadence_name else "—",
            "duckdbText": format_seconds(medians["DuckDB"]) if query.comparable else "not run",
            "polarsText": format_seconds(medians["Polars"]) if query.comparable else "not run",
            "duckdbRatio": duck_ratio if query.cadence_name else "— (different work)",
            "polarsRatio": polars_ratio if query.cadence_name else "— (different work)",
            "cadenceIntervals": cadence_figure.intervals if cadence_figure else None,
            "peerTimings": timings,
        })

    # Import comparison.
    time_binary = "/usr/bin/time" if Path("/usr/bin/time").exists() else None
    imports = []
    if not arguments.skip_import:
        if time_binary is None:
            notes.append("/usr/bin/time is missing (apt-get install -y time): peak memory not measured.")
        del polars_hr, polars_steps  # free memory before the import runs
        for records in arguments.import_records:
            imports.append(compare_imports(cadence, records, seed, arguments.workdir, time_binary))

    # Sanity check.
    sanity = ["skipped"]
    if not arguments.skip_sanity:
        sanity = sanity_check(cadence, con, dense_csv, arguments.workdir, peer_results, figures, samples)
    if not arguments.keep_data:
        dense_csv.unlink(missing_ok=True)

    report = Report(meta={
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python3 Benchmarks/compare/compare.py " + " ".join(argv),
        "machine": machine(), "versions": versions_text, "seed": seed, "runs": runs,
        "denseSamples": dense_rows, "realisticSamples": realistic_rows, "stepSamples": step_rows,
        "loadStart": load_start, "loadEnd": load_average(),
        "benchLoadStart": bench_report["machine"].get("loadAverageAtStart"),
        "benchLoadEnd": bench_report["machine"].get("loadAverageAtEnd"),
    }, rows=rows, loads=loads, imports=imports, csv_imports=csv_imports, sanity=sanity, notes=notes)
    report.targets = issue_targets(rows, imports, csv_imports, samples)
    report.notes += standing_notes(xml_import_measured=bool(imports))

    text = report.markdown()
    print(text)
    if arguments.output:
        arguments.output.parent.mkdir(parents=True, exist_ok=True)
        arguments.output.write_text(report.json() if arguments.output.suffix == ".json" else text)
        log(f"wrote {arguments.output}")
    bench_table_path = arguments.workdir / f"cadence-bench-{label}.txt"
    bench_table = bench_table_path.read_text() if not arguments.cadence_json and bench_table_path.exists() else None
    if arguments.results:
        arguments.results.write_text("# Results\n" + report.results_section(bench_table, full=True).rstrip("\n") + "\n")
        log(f"wrote {arguments.results}")
    for readme in arguments.readme:
        replace_results_section(readme, report.summary_section())
        log(f"rewrote the Results section of {readme}")
    return 0


#: The line that begins the part of a results section other commands measured, kept as it is.
SEPARATELY_MEASURED = "Measured separately"


def replace_results_section(path: Path, body: str) -> None:
    """Replaces what follows the '## Results' heading of a Markdown file, up to the next '## ' heading
    or to a paragraph beginning "Measured separately" (figures other commands measured), which is kept."""
    lines = path.read_text().split("\n")
    try:
        start = lines.index("## Results")
    except ValueError:
        raise SystemExit(f"{path} has no '## Results' heading to rewrite")
    end = next((index for index in range(start + 1, len(lines)) if lines[index].startswith("## ")), len(lines))
    kept = next((index for index in range(start + 1, end) if lines[index].startswith(SEPARATELY_MEASURED)), end)
    tail = [""] + lines[kept:] if kept < len(lines) else [""]
    path.write_text("\n".join(lines[:start + 1] + body.rstrip("\n").split("\n") + tail))


def issue_targets(rows: list[dict], imports: list[dict], csv_imports: list[dict], samples: int) -> list[str]:
    """The comparative targets, checked against this run's ratios."""
    by_title = {row["query"]: row for row in rows}
    lines = []

    def check(title: str, peer: str, key: str, bound: float) -> None:
        row = by_title.get(title)
        if not row or row["cadence"] is None or row[key] is None:
            lines.append(f"{title} vs {peer} ≥ {bound:g}×: not measured")
            return
        ratio = row[key] / row["cadence"]
        lines.append(f"{title} vs {peer}: {ratio:.1f}× (target ≥ {bound:g}×) — {'met' if ratio >= bound else 'NOT MET'}")

    if samples < 10_000_000:
        lines.append(f"(the targets are stated for 10 M samples; this run used {samples:,})")
    check("daily heart rate avg/min/max", "Polars", "polars", 3)
    check("daily heart rate avg/min/max", "DuckDB", "duckdb", 30)
    check("hourly heart rate avg/min/max", "Polars", "polars", 1)
    check("five-minute heart rate avg/min/max", "Polars", "polars", 3)
    for item in csv_imports:
        two_cores = item["cadence"].get("2")
        if two_cores:
            rate = item["rows"] / two_cores
            lines.append(f"CSV import on 2 cores: {rate / 1e6:.2f} M rows/s (target ≥ 4 M rows/s) — "
                         f"{'met' if rate >= 4e6 else 'NOT MET'}")
        else:
            lines.append("CSV import on 2 cores ≥ 4 M rows/s: not measured")
    for item in imports:
        cadence, peer = item["cadence"], item["healthkitToSqlite"]
        if cadence.get("error") or peer.get("error"):
            lines.append("export.xml import ≥ 20× healthkit-to-sqlite: not measured (a tool failed, see above)")
        else:
            ratio = peer["wallSeconds"] / cadence["wallSeconds"]
            lines.append(f"export.xml import vs healthkit-to-sqlite ({item['records']:,} records): {ratio:.1f}× "
                         f"(target ≥ 20×) — {'met' if ratio >= 20 else 'NOT MET'}")
    measured = [item for item in imports if not item["cadence"].get("error") and item["cadence"].get("maxRSSBytes")]
    if len(measured) >= 2:
        small, large = measured[0], measured[-1]
        growth = large["cadence"]["maxRSSBytes"] / small["cadence"]["maxRSSBytes"]
        size = large["xmlBytes"] / small["xmlBytes"]
        lines.append(f"cadence import peak memory: {format_bytes(small['cadence']['maxRSSBytes'])} for "
                     f"{format_bytes(small['xmlBytes'])} of XML, {format_bytes(large['cadence']['maxRSSBytes'])} for "
                     f"{format_bytes(large['xmlBytes'])} ({size:.1f}× the file, {growth:.2f}× the memory; "
                     f"target: does not grow with the file's size, read here as within 1.25×) — "
                     f"{'met' if growth <= 1.25 else 'NOT MET'}")
    else:
        lines.append("cadence import peak memory at two file sizes: not measured (give --import-records two sizes)")
    return lines


def standing_notes(xml_import_measured: bool) -> list[str]:
    """What a reader needs to read the figures correctly (true of every run that measured them)."""
    notes = [
        "Heart rate in these profiles is zero-length samples, so HealthKit's temporally weighted "
        "average (what Cadence computes) equals the arithmetic mean the peers compute.",
        "Peers get a per-type table/frame (the type filter, parsing and sorting happen at load time, untimed); "
        "Cadence stores each type separately, so no query pays for filtering by type.",
        "DuckDB times: the query computed into a temporary table inside DuckDB (no conversion to Python objects). "
        "Polars times: the eager query returning a DataFrame. Cadence times: the bench's query plus "
        "`statistics()` on the collection. All engines use every core.",
        "Days, months and years start at 03:00 Europe/Berlin wall-clock time (DuckDB: time_bucket over "
        "timezone('Europe/Berlin', start_date) with a 3-hour offset; Polars: group_by_dynamic with offset='3h'); "
        "hours are absolute hours in Europe/Berlin (DuckDB: time_bucket(..., 'Europe/Berlin'); Polars: '1h').",
        "The daily step sum in Cadence prorates samples across interval edges and merges overlapping iPhone and "
        "Watch samples by source priority (HealthKit's rule); neither peer can express that in a simple query, "
        "so it has no ratio. The naive sum row is different work, timed for reference only.",
        "Cadence's ingest is a different operation (in-memory batches to a durable, fsync'd on-disk store) from "
        "the peers' CSV parse into memory: listed for context, not compared.",
        "CSV import: Cadence's figure is the bench's (read, parse, validate, convert units, save into a durable "
        "compressed store, close); the peers' is reading the same CSV into memory with every column typed. "
        "The ratio shows scale, not the same work.",
    ]
    if xml_import_measured:
        notes.append("Import: both tools read the same uncompressed export.xml (healthkit-to-sqlite with --xml, Cadence "
                     "directly), one run each; peak memory is GNU time's maximum resident set size of the whole process.")
    return notes


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
