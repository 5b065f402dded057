#!/usr/bin/env python3
# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
"""Users per second for ``cadence batch`` and for the Spark integration, on the same generated users.

Measures, each the median of ``--runs`` runs after one warm-up:

- ``cadence batch --stores`` at 1 and 2 workers, and ``cadence batch --input -`` (samples on
  standard input, no store) in one process;
- the Spark path (``statistics_from_samples``, Parquet written) at ``local[1]`` and ``local[2]``,
  and ``statistics_from_stores`` the same way;
- the start-up cost of one ``cadence`` process per partition (empty input);
- a plain Spark SQL ``groupBy(user, day)`` sum of steps against the exact totals: how far the
  totals are apart (it neither prorates samples across midnight nor merges iPhone and Watch).

Writes the figures, the machine and its load average into ``--output`` (a Markdown file).

    python3 Integrations/spark/benchmark.py --users 200 --days 14 --output Benchmarks/batch/results.md
"""

import argparse
import csv
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
REPOSITORY = PACKAGE.parent.parent
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE), os.environ.get("PYTHONPATH")]))
sys.path.insert(0, str(PACKAGE))

from cadence_spark import Query, statistics_from_samples, statistics_from_stores, write_parquet  # noqa: E402

ZONE = "Europe/Berlin"


def run(*arguments, stdin=None) -> str:
    result = subprocess.run(list(arguments), capture_output=True, text=True, stdin=stdin)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, arguments))} failed: {result.stderr}")
    return result.stdout


def timed(action, runs: int, warm_up: bool = True) -> float:
    """The median wall-clock seconds of ``runs`` calls, after one warm-up unless told not to."""
    if warm_up:
        action()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def generate(binary: str, root: Path, users: int, days: int) -> list:
    names = [f"user-{index:05d}" for index in range(users)]
    (root / "csv").mkdir(parents=True)
    (root / "stores").mkdir()
    for index, name in enumerate(names):
        samples = root / "csv" / f"{name}.csv"
        run(binary, "generate", "--profile", "realistic", "--days", str(days), "--seed", str(index + 1),
            "--start", "2024-01-01T00:00:00+01:00", "--format", "csv", "--output", str(samples))
        run(binary, "import", str(samples), "--store", str(root / "stores" / name))
    # One stream of every user's samples, grouped by user, for the stateless mode.
    with open(root / "all.csv", "w", encoding="utf-8", newline="") as stream:
        for number, name in enumerate(names):
            with open(root / "csv" / f"{name}.csv", encoding="utf-8", newline="") as file:
                header = file.readline()
                if number == 0:
                    stream.write("user," + header)
                for line in file:
                    stream.write(name + "," + line)
    return names


def spark_session(master: str):
    from pyspark.sql import SparkSession
    # The Python workers run this interpreter (with pyarrow), not whatever `python3` is first on PATH.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (SparkSession.builder.master(master).appName("cadence-benchmark")
               .config("spark.pyspark.python", sys.executable)
               .config("spark.ui.enabled", "false").config("spark.driver.memory", "2g")
               .config("spark.sql.shuffle.partitions", master[6:-1]).getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    return session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--days", type=int, default=14)
    parser.add_argument("--year-users", type=int, default=20, help="users of a whole year, for cadence batch only")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=10, help="times cadence batch --stores goes over each user")
    parser.add_argument("--spark-runs", type=int, default=1, help="runs of each Spark path (they are long)")
    parser.add_argument("--binary", default=str(REPOSITORY / ".build" / "release" / "cadence"))
    parser.add_argument("--output", default=str(REPOSITORY / "Benchmarks" / "batch" / "results.md"))
    parser.add_argument("--work", default=None, help="scratch directory (default: a temporary one)")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    work = Path(arguments.work or tempfile.mkdtemp(prefix="cadence-batch-benchmark-"))
    if work.exists():
        shutil.rmtree(work)
    started = datetime.now(timezone.utc)
    load_start = load_average()

    # Daily sums over the generated span, in Berlin, sources merged.
    end_day = datetime(2024, 1, 1).toordinal() + arguments.days
    end = datetime.fromordinal(end_day).strftime("%Y-%m-%d")
    query = Query(type="stepCount", statistics=("sum",), start="2024-01-01", end=end, interval="1d", time_zone=ZONE)

    print(f"generating {arguments.users} users × {arguments.days} days in {work}", file=sys.stderr)
    names = generate(binary, work / "month", arguments.users, arguments.days)
    samples_total = sum(1 for _ in open(work / "month" / "all.csv", encoding="utf-8")) - 1
    results = []

    def repeated_list(root: Path) -> Path:
        listing = root / "repeated.csv"
        with open(listing, "w", encoding="utf-8") as file:
            file.write("user_id,store_path\n")
            for copy in range(arguments.repeat):
                for store in sorted((root / "stores").iterdir()):
                    file.write(f"{store.name}-{copy},{store}\n")
        return listing

    def batch_stores(jobs: int, root: Path, batch_query: Query):
        listing = repeated_list(root)
        return lambda: run(binary, "batch", "--list", str(listing), "--jobs", str(jobs), *batch_query.arguments())

    for jobs in (1, 2):
        seconds = timed(batch_stores(jobs, work / "month", query), arguments.runs)
        results.append((f"cadence batch over stores (--list), --jobs {jobs}", arguments.users * arguments.repeat, seconds))

    def batch_input():
        with open(work / "month" / "all.csv", "rb") as stream:
            run(binary, "batch", "--input", "-", *query.arguments(), stdin=stream)

    results.append(("cadence batch --input - (no store), one process", arguments.users,
                    timed(batch_input, arguments.runs)))

    # The cost of one process per partition: cadence started on an empty partition.
    empty = work / "empty.csv"
    empty.write_text("user,type,sourceName,unit,startDate,endDate,value\n", encoding="utf-8")

    def empty_partition():
        with open(empty, "rb") as stream:
            run(binary, "batch", "--input", "-", *query.arguments(), stdin=stream)

    startup = timed(empty_partition, 20)

    # A whole year for a few users: cadence batch only (for the cost model).
    year_query = Query(type="stepCount", statistics=("sum",), start="2024-01-01", end="2025-01-01", interval="1d",
                       time_zone=ZONE)
    print(f"generating {arguments.year_users} users × 366 days", file=sys.stderr)
    generate(binary, work / "year", arguments.year_users, 366)
    year_results = []
    for jobs in (1, 2):
        seconds = timed(batch_stores(jobs, work / "year", year_query), arguments.runs)
        year_results.append((f"cadence batch over stores (--list), --jobs {jobs}", arguments.year_users * arguments.repeat, seconds))

    from pyspark.sql import functions as F
    spark_results = []
    ratios = []
    gap = None
    for master in ("local[1]", "local[2]"):
        spark = spark_session(master)
        frame = spark.read.csv(str(work / "month" / "csv"), header=True)
        frame = frame.withColumn("user", F.regexp_extract(F.input_file_name(), r"(user-\d+)\.csv", 1)).cache()
        frame.count()
        parallelism = int(master[6:-1])
        output = work / f"parquet-{parallelism}"
        seconds = timed(lambda: write_parquet(statistics_from_samples(frame, query, binary=binary,
                                                                       partitions=parallelism), str(output)),
                        arguments.spark_runs, warm_up=False)
        spark_results.append((f"Spark {master}: samples → one cadence per partition → Parquet", arguments.users, seconds))
        # The naive query in the same session on the same cached DataFrame: the exact path's price.
        naive_seconds = timed(lambda: naive_daily_sums(frame, query).write.mode("overwrite")
                              .parquet(str(output) + "-naive"), arguments.spark_runs, warm_up=False)
        spark_results.append((f"Spark {master}: plain Spark SQL groupBy(user, day) sum → Parquet", arguments.users,
                              naive_seconds))
        ratios.append((master, seconds / naive_seconds))
        stores = spark.createDataFrame([(name, str(work / "month" / "stores" / name)) for name in names],
                                       ["user", "store"]).repartition(parallelism).cache()
        stores.count()
        seconds = timed(lambda: statistics_from_stores(stores, query, binary=binary).write.mode("overwrite")
                        .parquet(str(output) + "-stores"), arguments.spark_runs, warm_up=False)
        spark_results.append((f"Spark {master}: store paths → one cadence per partition → Parquet", arguments.users,
                              seconds))
        if gap is None:
            gap = naive_gap(spark, frame, spark.read.parquet(str(output)), query)
        spark.stop()

    load_end = load_average()
    write_report(arguments, work, started, load_start, load_end, samples_total, results, year_results,
                 spark_results, startup, gap, binary, ratios)
    if not arguments.work:
        shutil.rmtree(work, ignore_errors=True)


def naive_daily_sums(frame, query: Query):
    """A plain Spark SQL day sum: every sample added to the day it starts on, every source added."""
    from pyspark.sql import functions as F
    steps = frame.where(F.col("type") == "HKQuantityTypeIdentifierStepCount")
    local = F.from_utc_timestamp(F.to_timestamp("startDate"), ZONE)
    return (steps.where((local >= F.lit(query.start)) & (local < F.lit(query.end)))
            .groupBy("user", F.to_date(local).alias("date"))
            .agg(F.sum(F.col("value").cast("double")).alias("naive")))


def naive_gap(spark, frame, exact, query: Query) -> dict:
    """A plain Spark SQL day sum (the day a sample starts on, every source added) beside the exact sums."""
    from pyspark.sql import functions as F
    naive = naive_daily_sums(frame, query)
    joined = (exact.select("user", "date", F.col("sum").alias("exact"))
              .join(naive, ["user", "date"], "full_outer")
              .fillna(0.0, ["exact", "naive"]))
    totals = joined.agg(F.sum("exact").alias("exact"), F.sum("naive").alias("naive"),
                        F.avg(F.abs(F.col("naive") - F.col("exact")) / F.greatest(F.col("exact"), F.lit(1.0)))
                        .alias("meanDayGap"),
                        F.count("*").alias("days")).collect()[0]
    return {"exact": totals["exact"], "naive": totals["naive"], "meanDayGap": totals["meanDayGap"],
            "days": totals["days"]}


def write_report(arguments, work, started, load_start, load_end, samples_total, results, year_results,
                 spark_results, startup, gap, binary, ratios) -> None:
    import pyspark
    commit = subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    lines = [
        "# cadence batch and the Spark integration: users per second",
        "",
        f"Written by `Integrations/spark/benchmark.py` ({started:%Y-%m-%d %H:%M} UTC); do not edit by hand:",
        "",
        "```sh",
        f"python3 Integrations/spark/benchmark.py --users {arguments.users} --days {arguments.days} "
        f"--year-users {arguments.year_users} --runs {arguments.runs} --spark-runs {arguments.spark_runs} "
        f"--repeat {arguments.repeat}",
        "```",
        "",
        f"- machine: {os.cpu_count()} cores, {memory:.0f} GiB, {platform.platform()}",
        f"- load average (1/5/15 min): start {load_start}, end {load_end} (the machine is shared: read the figures with it)",
        f"- versions: Cadence {commit}; {swift[0] if swift else 'swift ?'}; Python {platform.python_version()}; "
        f"pyspark {pyspark.__version__}; {java[0] if java else 'java ?'}",
        f"- data: {arguments.users} users × {arguments.days} days of the realistic profile "
        f"({samples_total:,} samples, {samples_total // max(arguments.users, 1):,} a user); "
        f"query: daily step sums in {ZONE}, iPhone and Watch merged, prorated",
        f"- each time is the median of {arguments.runs} runs after 1 warm-up (Spark paths: {arguments.spark_runs} "
        f"run{'s' if arguments.spark_runs > 1 else ''}, no warm-up, after the input DataFrame was cached); "
        f"cadence batch --stores goes over every user {arguments.repeat} times (a list naming each store "
        f"{arguments.repeat} times under distinct user ids), so that a run lasts long enough to time",
        "",
        f"## {arguments.users} users × {arguments.days} days",
        "",
        "| path | users | median | users/s | ms a user |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, users, seconds in results + spark_results:
        lines.append(f"| {name} | {users} | {seconds:.2f} s | {users / seconds:,.1f} | {1000 * seconds / users:.2f} |")
    one, two = results[0][2], results[1][2]
    lines += ["", f"- cadence batch speed-up on 2 workers: {one / two:.2f}×"]
    spark_one = spark_results[0][2]
    spark_two = spark_results[3][2]
    lines += [f"- Spark samples path speed-up local[2] / local[1]: {spark_one / spark_two:.2f}×",
              *[f"- exact path / plain Spark SQL groupBy on the same cached DataFrame, {master}: {ratio:.2f}×"
                for master, ratio in ratios],
              f"- start-up of one cadence process on an empty partition (median of 20): {1000 * startup:.1f} ms",
              "", f"## {arguments.year_users} users × 366 days (cadence batch, for the cost model)", "",
              "| path | users | median | users/s | ms a user |", "|---|---:|---:|---:|---:|"]
    for name, users, seconds in year_results:
        lines.append(f"| {name} | {users} | {seconds:.2f} s | {users / seconds:,.1f} | {1000 * seconds / users:.2f} |")
    year_one = year_results[0][2] / year_results[0][1]
    year_two = year_results[1][2] / year_results[1][1]
    lines += ["", f"- speed-up on 2 workers: {year_results[0][2] / year_results[1][2]:.2f}×",
              f"- 1,000,000 users × 1 year daily at this rate: {1e6 * year_one / 3600:.1f} core-hours on one worker; "
              f"{1e6 * year_two / 3600:.1f} hours on this 2-core machine"]
    lines += ["", "## Plain Spark SQL groupBy(user, day) sum against the exact sums", "",
              f"- exact total (Cadence, merged and prorated): {gap['exact']:,.0f} steps",
              f"- naive total (sum of every sample by the day it starts on): {gap['naive']:,.0f} steps "
              f"({100 * (gap['naive'] - gap['exact']) / gap['exact']:+.1f}%)",
              f"- mean gap of a user's day: {100 * gap['meanDayGap']:.1f}% over {gap['days']:,} user-days", ""]
    output = Path(arguments.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
